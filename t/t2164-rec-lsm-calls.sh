#!/bin/bash
# t2164-rec-lsm-calls.sh: lsm_list_modules, lsm_get_self_attr and
# getxattrat, which rec answered ENOSYS where the kernel has them (LTP's
# lsm_list_modules01 said TCONF), are recorded: what they write, and
# the size the LSM calls write with E2BIG. The same answers as natively,
# and the trace replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog lsmcalls

test_expect_success 'output differs between native runs' '
	differs_natively "$T/lsmcalls"
'
test_expect_success 'recorded and replayed' '
	rec_replay_cmp "$T/lsmcalls"
'
test_expect_success 'the same answers as natively' '
	"$T/lsmcalls" | grep -v "^token\|^getxattrat" >nat.out &&
	grep -v "^token\|^getxattrat" rec.out | cmp - nat.out &&
	grep -Eq "^getxattrat: [0-9]+  v[0-9]+$|^getxattrat: -1 ENOSYS $|^getxattrat: no user xattrs here$" rec.out
'
test_done
