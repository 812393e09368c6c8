#!/bin/bash
# t2008-replay-timer.sh: SIGALRM from setitimer + pause, alarm +
# sigsuspend and an interval timer replay at the recorded points.
. "$(dirname "$0")/test-lib.sh"
require_tprog timer

test_expect_success 'output differs between native runs' '
	differs_natively "$T/timer"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/timer"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
