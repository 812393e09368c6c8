#!/bin/bash
# t2009-replay-signals.sh: raise, kill(getpid()) and sigqueue to self
# replay with the same handlers run and the same siginfo.
. "$(dirname "$0")/test-lib.sh"
require_tprog signals

test_expect_success 'output differs between native runs' '
	differs_natively "$T/signals"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/signals"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
