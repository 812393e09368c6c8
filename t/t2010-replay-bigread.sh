#!/bin/bash
# t2010-replay-bigread.sh: 64 MiB read from /dev/urandom and from /dev/zero
# replay to the same checksums; the /dev/zero trace stays small.
. "$(dirname "$0")/test-lib.sh"
require_tprog bigread

test_expect_success '/dev/urandom output differs natively' '
	differs_natively "$T/bigread" /dev/urandom 4
'
test_expect_success '64 MiB from /dev/urandom replays' '
	rec_replay_cmp "$T/bigread" /dev/urandom &&
	grep -q "67108864 bytes" rec.out
'
test_expect_success '64 MiB from /dev/zero replays' '
	rec_replay_cmp "$T/bigread" /dev/zero &&
	grep -q "67108864 bytes" rec.out
'
test_expect_success 'the /dev/zero trace is under 1 MiB' '
	size=$(stat -c %s "$trace/events") &&
	echo "events is $size bytes" &&
	test "$size" -lt 1048576
'
test_done
