#!/bin/bash
# t1189-tree-handoff.sh: handoff.c (a thread loops on open and close
# through the syscall-buffer library while main creates and joins 100
# threads; rr's thread_open_race). Each new thread and each woken join is
# behind the looping thread in run time, so the looper gives way at its
# next call (poked to go traced before it runs) instead of at the end of
# its 20 ms timeslice, and rec looks for a woken thread's stop before it
# picks the next to run. The recordings, with counting and without,
# replay byte for byte; the looper ran between the joins (the program
# says whether each of its opens found the file). The speed is make
# bench's handoff row.
. "$(dirname "$0")/test-lib.sh"
require_tprog handoff

test_expect_success 'output differs between native runs' '
	differs_natively "$T/handoff" 20
'
test_expect_success 'recorded (counted) and replayed byte for byte' '
	rec_replay_cmp "$T/handoff" 100 &&
	grep -q "joined 100 opens all good" "$scratch/rec.out"
'
test_expect_success 'the looper made calls between the joins, and they replay as logged' '
	run_tool tdump "$trace" >dump &&
	grep -c " openat(" dump >opens &&
	test $(cat opens) -gt 1
'
test_expect_success 'uncounted (REWIND_NO_COUNT=1): replayed byte for byte' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/handoff" 100 &&
	grep -q "joined 100 opens all good" "$scratch/rec.out"
'
test_done
