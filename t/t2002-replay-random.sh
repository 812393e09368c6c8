#!/bin/bash
# t2002-replay-random.sh: getrandom, /dev/urandom and the AT_RANDOM
# auxv bytes replay to the recorded values.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

test_expect_success 'output differs between native runs' '
	differs_natively "$T/random"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/random"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
