#!/bin/bash
# t2020-replay-tsc-code.sh: code that reads its own bytes, and rdtsc in
# code made at run time, with rdtsc stopped both ways (the kernel's trap,
# and patched code with REWIND_NO_TSC_TRAP=1): replay matches, or, for
# what rewind cannot see, says that it diverged (never a silent replay).
. "$(dirname "$0")/test-lib.sh"
require_tprog codesum jit

REWIND_NO_TSC_TRAP=0 rec --probe | grep -q '^rdtsc trap: present' && test_set_prereq TSC_TRAP

test_expect_success 'codesum prints something else each native run' '
	differs_natively "$T/codesum"
'
for way in trap patch; do
	prereq=
	nt=1
	[ $way = trap ] && prereq=TSC_TRAP nt=0
	test_expect_success $prereq "$way: a program that sums its own code replays identically" '
		export REWIND_NO_TSC_TRAP=$nt &&
		rec_replay_cmp "$T/codesum" &&
		replay_cmp
	'
	# Patched, rec warns that it changed bytes in code of no ELF file.
	test_expect_success $prereq "$way: code made executable by mprotect: its rdtsc is recorded" '
		export REWIND_NO_TSC_TRAP=$nt &&
		rec_prog "$T/jit" && check_status rec.status 0 &&
		if [ $way = patch ]; then
			grep -q "^rec: warning: 1 rdtsc/rdtscp patched to ud2 in executable memory at 0x[0-9a-f]* that is no ELF file.s code" rec.err &&
			sed -i "/^rec: warning: /d" rec.err
		else
			! grep -q "^rec: warning" rec.err
		fi &&
		replay_cmp &&
		replay_cmp &&
		tdump "$trace" >dump &&
		addr=$(grep "mprotect(" dump | sed -n "s/.*mprotect(\(0x[0-9a-f]*\),.*/\1/p") &&
		test -n "$addr" && grep -q " rdtsc .* at $addr\$" dump
	'
done
test_expect_success TSC_TRAP 'trap: code written into an executable mapping is caught too' '
	export REWIND_NO_TSC_TRAP=0 &&
	rec_replay_cmp "$T/jit" rwx
'
test_expect_success 'patch: rdtsc written into an executable mapping: replay says it diverged' '
	export REWIND_NO_TSC_TRAP=1 &&
	rec_prog "$T/jit" rwx && check_status rec.status 0 &&
	run_tool replay "$trace" >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event [0-9]+: write: argument 2 differs"
'
test_expect_success TSC_TRAP 'patch, replayed where the trap works: it faults there' '
	REWIND_NO_TSC_TRAP=0 run_tool replay "$trace" >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event [0-9]+: expected syscall .*, got signal 11$"
'
test_expect_success TSC_TRAP 'recorded with the trap, a program reading its code diverges patched' '
	export REWIND_NO_TSC_TRAP=0 &&
	rec_prog "$T/codesum" && check_status rec.status 0 &&
	REWIND_NO_TSC_TRAP=1 run_tool replay "$trace" >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event [0-9]+: write: argument 2 differs"
'
test_expect_success 'patch: a MAP_SHARED executable mapping is never written; rec says so' '
	export REWIND_NO_TSC_TRAP=1 &&
	cp "$T/tsc" shared.bin && cp shared.bin shared.orig &&
	rec_prog "$T/jit" shared "$scratch/shared.bin" && check_status rec.status 0 &&
	grep -q "^rec: warning: [0-9]* rdtsc/rdtscp in a shared mapping at 0x[0-9a-f]* are not patched" rec.err &&
	cmp shared.orig shared.bin &&
	sed -i "/^rec: warning: /d" rec.err &&
	replay_cmp
'
test_done
