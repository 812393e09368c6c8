#!/bin/bash
# t2155-replay-madvise-zero.sh: madvise calls that change memory contents
# (DONTNEED of private and shared, anonymous and file pages, of locked
# ones, REMOVE, WIPEONFORK) replay to the same bytes.
. "$(dirname "$0")/test-lib.sh"
require_tprog madvzero

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/madvzero"
'
test_expect_success 'memory madvise changed replays' '
	rec_replay_cmp "$T/madvzero" &&
	grep -q "^private anon: 0 5$" rec.out &&
	grep -q "^locked: 0 7$" rec.out &&
	grep -q "^private file: 9 3$" rec.out &&
	grep -q "^shared file: 0 9$" rec.out &&
	grep -q "^child sees 0 8$" rec.out
'
test_done
