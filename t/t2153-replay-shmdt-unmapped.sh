#!/bin/bash
# t2153-replay-shmdt-unmapped.sh: shmdt of a segment whose mapping was
# unmapped (all of it: EINVAL, answered; its first page: the rest is
# detached, as the kernel finds it at its offset from the address).
. "$(dirname "$0")/test-lib.sh"
require_tprog shmdtgone

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/shmdtgone"
'
test_expect_success 'shmdt after munmap replays' '
	rec_replay_cmp "$T/shmdtgone" &&
	grep -q "^shmdt all gone -1 Invalid argument$" rec.out &&
	grep -q "^shmdt the rest 0 Success$" rec.out &&
	grep -q "^mapped again 1$" rec.out
'
test_done
