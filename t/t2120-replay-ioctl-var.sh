#!/bin/bash
# t2120-replay-ioctl-var.sh: ioctls whose struct leads to more output
# than the size their number encodes record all of it: FS_IOC_FIEMAP's
# extents (rec saved only struct fiemap, and replay diverged on the
# extents the program printed), FIDEDUPERANGE's infos, PROCMAP_QUERY's
# VMA name. Each may be unsupported here; whatever the kernel answered
# replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog ioctlvar

test_expect_success 'native output differs (token)' '
	differs_natively "$T/ioctlvar"
'
test_expect_success 'their outputs record and replay' '
	rec_replay_cmp "$T/ioctlvar" &&
	grep -q "^fiemap = " rec.out &&
	grep -q "^dedupe = " rec.out &&
	grep -q "^procmap_query = " rec.out
'
test_done
