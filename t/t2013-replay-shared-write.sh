#!/bin/bash
# t2013-replay-shared-write.sh: writes to a file the program maps MAP_SHARED
# show in the mapping under replay too (in replay's emulated copy).
. "$(dirname "$0")/test-lib.sh"
require_tprog shared-write

test_expect_success 'output differs between native runs' '
	differs_natively "$T/shared-write"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/shared-write"
'
test_expect_success 'the mapping saw the write' '
	grep -Eq "^mapped after pwrite: [0-9a-f]{8}$" rec.out &&
	grep -q "^mapped after truncate: 0$" rec.out
'
test_done
