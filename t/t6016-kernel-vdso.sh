#!/bin/bash
# t6016-kernel-vdso.sh: a program that looks the vDSO up itself
# (getauxval(AT_SYSINFO_EHDR), its ELF symbols) finds it under rec and
# calls its functions, which rec turned into syscalls: the clock it reads
# is recorded and replayed, while libc's own clock calls stay syscalls,
# also from a tseek checkpoint (a fresh process, whose vDSO is patched
# again). rec finds the vDSO again by PROCMAP_QUERY or, with
# REWIND_NO_PROCMAP_QUERY=1 (older kernels), by reading the maps.
. "$(dirname "$0")/test-lib.sh"
require_tprog vdso-read clocks

test_expect_success 'the vDSO read by the program records and replays' '
	rec_replay_cmp "$T/vdso-read" &&
	grep -q "^vDSO is an ELF image" rec.out &&
	grep -q "^time = now" rec.out
'
test_expect_success 'found the same way without PROCMAP_QUERY (the maps read line by line)' '
	REWIND_NO_PROCMAP_QUERY=1 rec_replay_cmp "$T/vdso-read" &&
	grep -q "^vDSO is an ELF image" rec.out &&
	grep -q "^time = now" rec.out
'
test_expect_success 'native output differs (the clock)' '
	differs_natively "$T/vdso-read"
'
test_expect_success 'its clock_gettime was a recorded syscall' '
	tdump "$trace" | grep -q "clock_gettime(CLOCK_MONOTONIC"
'
test_expect_success 'replayed from a checkpoint before the vDSO calls' '
	n=$(tdump "$trace" | grep -m1 "clock_gettime(CLOCK_MONOTONIC" | cut -d" " -f1) &&
	test "$n" -gt 4 &&
	run_tool tseek --every $((n - 1)) "$trace" >tseek.out 2>&1 &&
	tseek --list "$trace" | grep -q "^$((n - 1)) " &&
	run_tool replay --to $((n + 2)) "$trace" >out 2>err &&
	grep -q "getcpu(" out
'
test_expect_success 'libc'"'"'s clocks still make syscalls' '
	rec_replay_cmp "$T/clocks"
'
test_done
