#!/bin/bash
# t2207-count-point-signals.sh: an asynchronous signal that rec delivered
# at a point is raised by replay at the re-executed point. profsig
# computes under a 2 ms SIGPROF and prints where its loop was at each;
# spin-timer's threads spin under a 1 ms SIGALRM whose handler folds the
# counter of the thread it interrupted into a sum; handler-spin's handler
# itself computes, and its preemptions there are points. All print what
# differs run to run, and replay prints the same.
. "$(dirname "$0")/test-lib.sh"
require_tprog profsig spin-timer handler-spin

test_expect_success 'profsig prints something else each native run' '
	differs_natively "$T/profsig"
'
test_expect_success 'profsig: recorded, replay prints the same bytes' '
	rec_replay_cmp "$T/profsig" &&
	run_tool tdump "$trace" >dump
'
test_expect_success 'counted: signals were delivered at points' '
	if grep -q "^0 .* start .*counted=[1-9]" dump; then
		awk "/ \\(point: / { p[\$2] = 1; next }
		     / signal SIG[A-Z]* .* async/ && p[\$2] { n++ }
		     { p[\$2] = 0 }
		     END { print n + 0; exit !n }" dump
	fi
'
test_expect_success 'spin-timer: recorded, replay prints the same bytes' '
	differs_natively "$T/spin-timer" &&
	rec_replay_cmp "$T/spin-timer"
'
test_expect_success 'handler-spin: recorded, replay prints the same bytes' '
	rec_replay_cmp "$T/handler-spin"
'
test_expect_success 'handler-spin: preempted inside its handler, at points' '
	tdump "$trace" >dump &&
	if grep -q "^0 .* start .*counted=[1-9]" dump; then
		awk "/ signal SIGUSR1 / { h[\$2] = 1 }
		     / syscall rt_sigreturn/ { h[\$2] = 0 }
		     / \(point: / && h[\$2] { n++ }
		     END { print n + 0; exit !n }" dump
	fi
'
test_done
