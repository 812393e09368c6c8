#!/bin/bash
# t2012-replay-held-signal.sh: a signal that arrives while the program
# computes is held to the next syscall, or a preemption, and raised there;
# a sigsuspend() for it then returns under rec (it must not hang), and
# replay matches.
. "$(dirname "$0")/test-lib.sh"
require_tprog held-signal

test_expect_success 'output differs between native runs' '
	differs_natively "$T/held-signal"
'
test_expect_success 'rec finishes and replay writes the recorded bytes' '
	rec_replay_cmp "$T/held-signal"
'
# rec holds it about 0.1 s, then preempts the program and delivers it
# there, mid-computation as natively. Under heavy load the timer may fire
# while rec holds the program at setitimer's return (delivered there), or
# the computation may end first: held to the next call, rt_sigprocmask,
# which blocks it, it is delivered in the sigsuspend that waits for it.
test_expect_success 'the signal was held, then delivered at a preemption, setitimer or sigsuspend' '
	run_tool tdump "$trace" >dump &&
	if grep -q "seen while computing 0, hits 1" rec.out; then
		grep -A1 " syscall rt_sigsuspend(" dump | grep -q "signal SIGALRM .*async"
	else
		grep -q "seen while computing 1, hits 1" rec.out &&
		{ grep -A1 " syscall setitimer(" dump; grep -A1 " preempt " dump; } |
			grep -q "signal SIGALRM .*async"
	fi
'
test_done
