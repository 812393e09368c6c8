#!/bin/bash
# t1123-tree-remap-file-pages.sh: remap_file_pages records and replays
# (rec refused it): replay's copy of a file mapped shared is a shared
# mapping too, so replay performs the call again on it.
. "$(dirname "$0")/test-lib.sh"
require_tprog remapfp

test_expect_success 'native output differs (token)' '
	differs_natively "$T/remapfp"
'
test_expect_success 'pages move as natively, and replay' '
	rec_replay_cmp "$T/remapfp" &&
	grep -q "^remap = 0, first page shows: page 3 of " rec.out &&
	grep -q "^remap = 0, second page shows: page 0 of " rec.out &&
	grep -q "^the file.s first page: Page 0 of " rec.out &&
	grep -q "^remap = 0, shared anonymous page shows: anon " rec.out &&
	grep -q "^private: -1 errno 22" rec.out
'
test_done
