#!/bin/bash
# t2166-rec-umount-mapped.sh: rec keeps a descriptor of each file the
# program maps shared (replay emulates it), which made an umount of its
# filesystem fail with EBUSY once the program had unmapped and closed it
# (LTP's msync04, readahead02). Before an umount rec lets go of the ones
# no process maps: the same answers as natively, and the trace replays.
# As an ordinary user the mount fails in both runs.
. "$(dirname "$0")/test-lib.sh"
require_tprog umountmap

test_expect_success 'output differs between native runs' '
	differs_natively "$T/umountmap"
'
test_expect_success 'recorded and replayed' '
	rec_replay_cmp "$T/umountmap"
'
test_expect_success 'the same answers as natively' '
	"$T/umountmap" | grep -v "^token" >nat.out &&
	grep -v "^token" rec.out | cmp - nat.out
'
test_done
