#!/bin/bash
# t2161-replay-mremap-moved.sh: a file mapped shared, grown by mremap
# with MREMAP_MAYMOVE, moved where the kernel found room under rec.
# Replay maps such a file from a memfd of its own, which the kernel may
# place otherwise (aligned to huge pages), so replay moves it to the
# recorded place where that is free (LTP's mremap01 diverged).
. "$(dirname "$0")/test-lib.sh"
require_tprog mremapmove

test_expect_success 'output differs between native runs' '
	differs_natively "$T/mremapmove" "$scratch/f"
'
test_expect_success 'the moved mapping replays at its recorded place' '
	rec_replay_cmp "$T/mremapmove" "$scratch/f" &&
	cat rec.out &&
	grep -Eq "^mremap (moved|in place), marker [0-9]+$" rec.out
'
test_done
