#!/bin/bash
# t1111-tree-asan-leak.sh: a -fsanitize=address program that leaks records
# and replays with LeakSanitizer's report byte for byte. At exit LSan
# clones a helper with CLONE_UNTRACED that ptraces the program's threads:
# rec keeps the helper traced and answers its ptrace itself; before, rec
# spun forever on the program's sched_yield.
. "$(dirname "$0")/test-lib.sh"
require_tprog leak-asan

# make check runs the sanitized tools with detect_leaks=0 in the
# environment: the recorded program must check for leaks all the same.
leak () {
	env ASAN_OPTIONS=detect_leaks=1 "$T/leak-asan" "$@"
}

test_expect_success 'the leak report differs natively' '
	differs_natively env ASAN_OPTIONS=detect_leaks=1 "$T/leak-asan" &&
	grep -q "ERROR: LeakSanitizer: detected memory leaks" nat1.out
'
test_expect_success 'record and replay the report byte for byte' '
	RR_EXPECT=1 rec_replay_cmp env ASAN_OPTIONS=detect_leaks=1 "$T/leak-asan" &&
	grep -q "ERROR: LeakSanitizer: detected memory leaks" rec.err &&
	grep -Eq "^SUMMARY: AddressSanitizer: [0-9]+ byte\(s\) leaked in [1-5] allocation\(s\)\.$" rec.err &&
	grep -Eq "^leaked [1-5] blocks$" rec.out
'
test_expect_success 'the helper'"'"'s ptrace calls are in the trace; rec did not spin' '
	run_tool tdump "$trace" >dump &&
	grep -E " syscall ptrace\(PTRACE_ATTACH, " dump &&
	grep -E " syscall ptrace\(PTRACE_DETACH, " dump &&
	# How often the helper yields while the threads settle depends on
	# timing (0 to a few hundred here); the old livelock made millions.
	test $(grep -c " sched_yield(" dump) -lt 5000
'
test_expect_success 'with three threads blocked in read meanwhile' '
	RR_EXPECT=1 rec_replay_cmp env ASAN_OPTIONS=detect_leaks=1 "$T/leak-asan" 3 &&
	grep -q "ERROR: LeakSanitizer: detected memory leaks" rec.err &&
	run_tool tdump "$trace" >dump &&
	test $(grep -Ec " syscall ptrace\(PTRACE_ATTACH, " dump) = 4
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_done
