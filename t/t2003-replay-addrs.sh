#!/bin/bash
# t2003-replay-addrs.sh: heap, stack, code, library and mmap addresses
# printed with %p are the same in replay.
. "$(dirname "$0")/test-lib.sh"
require_tprog addrs

test_expect_success 'output differs between native runs' '
	differs_natively "$T/addrs"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/addrs"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
