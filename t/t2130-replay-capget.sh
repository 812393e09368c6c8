#!/bin/bash
# t2130-replay-capget.sh: capget and capset refused for their version
# write the kernel's version into the header: rec saves it (replay left
# the program's own there, and the program printed it).
. "$(dirname "$0")/test-lib.sh"
require_tprog capver

test_expect_success 'native output differs (token)' '
	differs_natively "$T/capver"
'
test_expect_success 'the header the kernel wrote replays' '
	rec_replay_cmp "$T/capver" &&
	grep -q "^capget bad version = -1 (Invalid argument), header now 0x20080522$" rec.out &&
	grep -q "^capset bad version = -1 (Invalid argument), header now 0x20080522$" rec.out
'
test_done
