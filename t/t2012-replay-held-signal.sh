#!/bin/bash
# t2012-replay-held-signal.sh: a signal that arrives while the program
# computes is held to the next syscall and raised there; a pause() for it
# then returns under rec (it must not hang), and replay matches.
. "$(dirname "$0")/test-lib.sh"
require_tprog held-signal

test_expect_success 'output differs between native runs' '
	differs_natively "$T/held-signal"
'
test_expect_success 'rec finishes and replay writes the recorded bytes' '
	rec_replay_cmp "$T/held-signal"
'
# Under heavy load the timer may fire while rec holds the program at
# setitimer's return; then it is delivered there and pause is never called.
test_expect_success 'the signal was held to pause and delivered there' '
	run_tool tdump "$trace" >dump &&
	if grep -q "seen while computing 0, hits 1" rec.out; then
		grep -A1 " syscall pause() " dump | grep -q "signal SIGALRM .*async"
	else
		grep -q "seen while computing 1, hits 1" rec.out &&
		grep -A1 " syscall setitimer(" dump | grep -q "signal SIGALRM .*async"
	fi
'
test_done
