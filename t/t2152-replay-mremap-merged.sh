#!/bin/bash
# t2152-replay-mremap-merged.sh: mremap grows a range the kernel merged
# from two neighbours. A file's private neighbours are two mappings in
# replay (each maps replay's copy through an open of its own): replay
# moves or grows them piece by piece, and the program sees the same.
. "$(dirname "$0")/test-lib.sh"
require_tprog mremapmerge

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/mremapmerge"
'
test_expect_success 'merged ranges grown: replayed' '
	rec_replay_cmp "$T/mremapmerge" &&
	grep -q "^anon moved: ok 1 2$" rec.out &&
	grep -q "^file moved: ok 10 12 14$" rec.out &&
	grep -q "^file in place: same 10 11 15$" rec.out
'
test_done
