#!/bin/bash
# t2204-count-points.sh: counted (the default), a preemption of a counted
# thread is recorded as a point (TRP_POINT: its count, rip, registers
# and the hashes of its memory, no bytes), and replay re-executes the
# thread to it: counting.c's threads, whose output differs run to run,
# replay byte for byte. Under the fallbacks (REWIND_NO_COUNT=1) nothing
# is counted, no preemption is a point, and replay matches all the same.
# A point also on a CPU kept busy by another program: the preempted
# thread, sent on to its edge, may not run before rec's next tick, which
# then lets it go on instead of recording its state whole. (Its
# preemptions in the program's own code: one in libc as the thread
# starts, still at its clone's end, is a state.)
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
# patched: the spinner's process was patched for counting before the
# thread's first preemption in the program's code (at 0x5555..., rec
# turns address randomization off). Not so when the new thread ran
# before rec took its clone's end: the patch then waits for a call's
# end with no other thread where it goes, after the spin.
patched () {
	counted && awk "/ \(its code patched for counting now\)/ { p = 1 }
		/ preempt at 0x5555/ { seen = 1; exit }
		END { exit !(seen && p) }" dump
}
test_expect_success 'a thread spinning on a flag replays from its point' '
	rec_replay_cmp "$T/spin" count &&
	run_tool tdump "$trace" >dump &&
	if patched; then grep -q " (point: " dump; fi
'
test_expect_success 'REWIND_NO_POINTS=1: counted, but every state recorded whole' '
	REWIND_NO_POINTS=1 rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q " preempt at " dump &&
	! grep -q " (point: " dump
'
test_expect_success 'on a CPU another program keeps busy, the spinning thread still replays from a point' '
	cpu=$(taskset -pc $$ | sed "s/.*: //; s/[-,].*//") &&
	{ taskset -c "$cpu" sh -c "while :; do :; done" & } &&
	hog=$! &&
	ok=0 &&
	for i in 1 2 3 4 5; do
		(
			taskset -pc "$cpu" $BASHPID >/dev/null &&
			rec_replay_cmp chrt -i 0 "$T/spin" count &&
			run_tool tdump "$trace" >dump &&
			grep " preempt at 0x5555" dump >pre &&
			if patched; then ! grep -v " (point: " pre; fi
		) || break
		ok=$i
	done
	kill $hog
	test $ok = 5
'
test_done
