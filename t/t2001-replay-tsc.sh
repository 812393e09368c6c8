#!/bin/bash
# t2001-replay-tsc.sh: rdtsc and rdtscp (inline asm) replay to the recorded
# counter values.
. "$(dirname "$0")/test-lib.sh"
require_tprog tsc

test_expect_success 'output differs between native runs' '
	differs_natively "$T/tsc"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/tsc"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
