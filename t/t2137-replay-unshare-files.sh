#!/bin/bash
# t2137-replay-unshare-files.sh: a thread that takes a descriptor table
# of its own (unshare CLONE_FILES, close_range CLOSE_RANGE_UNSHARE)
# leaves the process's other threads with the old one, behind the same
# syscall buffer: rec turns buffering off for that process. It rescanned
# the new table only, so another thread's write to stdout through a
# number the first had reused for a regular file went buffered, and
# replay printed nothing for it.
. "$(dirname "$0")/test-lib.sh"
require_tprog unsharefd

test_expect_success 'native output differs (token)' '
	differs_natively "$T/unsharefd"
'
test_expect_success 'after unshare(CLONE_FILES) the other thread'"'"'s write replays' '
	rec_replay_cmp "$T/unsharefd" &&
	grep -q "^unshare = 0, the file got the same number: 1$" rec.out &&
	grep -q "^the other thread writes [0-9a-f]*$" rec.out
'
test_expect_success 'so after close_range(CLOSE_RANGE_UNSHARE)' '
	rec_replay_cmp "$T/unsharefd" range &&
	grep -q "^close_range = 0, the file got the same number: 1$" rec.out &&
	grep -q "^the other thread writes [0-9a-f]*$" rec.out
'
test_done
