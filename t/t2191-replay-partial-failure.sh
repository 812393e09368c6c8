#!/bin/bash
# t2191-replay-partial-failure.sh: calls that fail after changing a part
# of their range (madvise over a hole or a locked page, mprotect over a
# hole) replay with the same effect: rec keeps the pages a failed
# madvise left, and replay makes the mprotect, which fails the same way.
. "$(dirname "$0")/test-lib.sh"
require_tprog partial

test_expect_success 'output differs between native runs' '
	differs_natively "$T/partial"
'
test_expect_success 'recorded and replayed byte for byte' '
	rec_replay_cmp "$T/partial" &&
	grep -Eq "^([0-9a-f]{2}) ([0-9a-f]{2}): madvise over a hole -1 Cannot allocate memory, left 00 00$" rec.out &&
	grep -Eq "^(no mlock: .*|[0-9a-f]{2} ([0-9a-f]{2}): madvise over a locked page -1 Invalid argument, left 00 \2)$" rec.out &&
	grep -qx "mprotect over a hole -1 Cannot allocate memory" rec.out
'
test_done
