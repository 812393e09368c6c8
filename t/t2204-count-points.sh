#!/bin/bash
# t2204-count-points.sh: counted (the default), a preemption of a counted
# thread is recorded as a point (TRP_POINT: its count, rip, registers
# and the hashes of its memory, no bytes), and replay re-executes the
# thread to it: counting.c's threads, whose output differs run to run,
# replay byte for byte. Under the fallbacks (REWIND_NO_COUNT=1) nothing
# is counted, no preemption is a point, and replay matches all the same.
# On a CPU kept busy by two busy loops, the preempted thread, sent on
# to its edge, may get no CPU before rec's next tick: it is then
# recorded where it stands, its state whole, and replays all the same
# (letting it go on to its edge instead made points that replay did not
# find, 2 of 25 recordings under two busy loops).
. "$(dirname "$0")/test-lib.sh"
require_tprog counting spin

test_expect_success 'counting prints something else each native run' '
	differs_natively "$T/counting" 100
'
test_expect_success 'recorded counted, replay prints the same bytes' '
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q " preempt at " dump
'
test_expect_success 'counted: preemptions are points (where all threads were settled), each with its count' '
	if counted; then
		grep " preempt at " dump >pre &&
		grep -q " (point: replay runs the thread to it: " pre &&
		! grep -v " count=[0-9][0-9]*$" pre
	else
		! grep -q " (point: " dump
	fi
'
test_expect_success 'a thread spinning on a flag replays byte for byte, from its point or its state' '
	rec_replay_cmp "$T/spin" count &&
	run_tool tdump "$trace" >dump &&
	grep -q " preempt at " dump
'
test_expect_success 'REWIND_NO_POINTS=1: counted, but every state recorded whole' '
	REWIND_NO_POINTS=1 rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q " preempt at " dump &&
	! grep -q " (point: " dump
'
test_expect_success 'on a CPU two busy loops keep busy, the spinning thread replays byte for byte' '
	cpu=$(taskset -pc $$ | sed "s/.*: //; s/[-,].*//") &&
	{ taskset -c "$cpu" sh -c "while :; do :; done" & } &&
	hog=$! &&
	{ taskset -c "$cpu" sh -c "while :; do :; done" & } &&
	hog2=$! &&
	ok=0 &&
	for i in 1 2 3 4 5 6 7 8; do
		(
			taskset -pc "$cpu" $BASHPID >/dev/null &&
			rec_replay_cmp chrt -i 0 "$T/spin" count &&
			run_tool tdump "$trace" >dump &&
			grep -q " preempt at 0x5555" dump
		) || break
		ok=$i
	done
	kill $hog $hog2
	test $ok = 8
'
test_done
