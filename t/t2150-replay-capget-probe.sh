#!/bin/bash
# t2150-replay-capget-probe.sh: capget(&hdr, NULL), the version probe,
# writes the kernel's version into the header and returns 0: rec saves
# the header (replay left the program's own there).
. "$(dirname "$0")/test-lib.sh"
require_tprog capnull

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/capnull"
'
test_expect_success 'the probed version replays' '
	rec_replay_cmp "$T/capnull" &&
	test $(grep -c "^capget(NULL) = 0, header now 0x20080522$" rec.out) = 2 &&
	grep -q "^capget(NULL) v1 = 0, header now 0x19980330$" rec.out
'
test_done
