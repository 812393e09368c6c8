#!/bin/bash
# t2032-replay-map-corners.sh: a handled fault on a PROT_NONE page,
# madvise(MADV_DONTNEED) on private and shared mappings, MADV_REMOVE,
# a write to a file mapped private, mlock, a private mapping grown past
# another (mremap moves it), and private file mappings past the file's
# end (SIGBUS) or grown under.
. "$(dirname "$0")/test-lib.sh"
require_tprog mapcorners

test_expect_success 'output differs between native runs' '
	differs_natively "$T/mapcorners"
'
test_expect_success 'replay writes the recorded bytes and status, twice' '
	rec_replay_cmp "$T/mapcorners" &&
	replay_cmp
'
test_expect_success 'the program checked every corner' '
	grep -q "^all corners$" rec.out &&
	grep -q "^fault at +20" rec.out &&
	grep -Eq "^private after pwrite: new [0-9a-f]{8}$" rec.out &&
	grep -q "^past the end: SIGBUS$" rec.out &&
	grep -q "^past the end, read-only: SIGBUS$" rec.out
'
test_done
