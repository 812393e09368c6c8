#!/bin/bash
# t2005-replay-mmap-file.sh: a file of random bytes mapped MAP_SHARED
# and MAP_PRIVATE, changed through both, replays to the same contents.
. "$(dirname "$0")/test-lib.sh"
require_tprog mmap-file

test_expect_success 'output differs between native runs' '
	differs_natively "$T/mmap-file"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/mmap-file"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
