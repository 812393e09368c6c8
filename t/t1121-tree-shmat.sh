#!/bin/bash
# t1121-tree-shmat.sh: SysV shared memory records and replays (rec
# refused shmat and shmdt): replay maps an emulated copy of the segment at
# every attachment, in any process, so they alias as they did, and shmdt
# unmaps it.
. "$(dirname "$0")/test-lib.sh"
require_tprog shmat

test_expect_success 'native output differs (token)' '
	differs_natively "$T/shmat"
'
test_expect_success 'attachments alias, in children too, and replay' '
	rec_replay_cmp "$T/shmat" &&
	grep -q "^through the other attachment: token " rec.out &&
	grep -q "^children wrote: child [0-9]*, second child [0-9]*$" rec.out &&
	grep -q "^at the rounded address 1: token " rec.out &&
	grep -q "^over a mapping 1: token " rec.out &&
	grep -q "^still attached: token " rec.out &&
	grep -q "^a fault after shmdt" rec.out
'
test_expect_success 'tdump shows the segment emulated' '
	tdump "$trace" >dump &&
	grep -q "shmat(.* emulated" dump
'
test_done
