#!/bin/bash
# t1115-tree-vfork-pidfd.sh: clone and clone3 with CLONE_VFORK|CLONE_PIDFD
# after opening files: replay opens none of them, so the kernel's pidfd
# there has another number; replay gives the program the recorded one.
. "$(dirname "$0")/test-lib.sh"
require_tprog vforkpidfd

test_expect_success 'output differs natively' '
	differs_natively "$T/vforkpidfd"
'
for how in clone clone3; do
	test_expect_success "$how: record and replay byte for byte" '
		rec_replay_cmp "$T/vforkpidfd" $how &&
		grep -Eqx "token [0-9a-f]{8}: pidfd [0-9]+, waitid 0, child matches, status ([0-9]+) \(want \1\)" rec.out
	'
done
test_done
