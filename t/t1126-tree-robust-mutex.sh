#!/bin/bash
# t1126-tree-robust-mutex.sh: a thread that ends holding robust mutexes
# leaves them marked (FUTEX_OWNER_DIED) by the kernel, and the next lock
# gets EOWNERDEAD; rec records those marks at the thread's end (replay's
# kernel, which knows the thread by another id than the one in the
# mutexes, made none, and replay diverged).
. "$(dirname "$0")/test-lib.sh"
require_tprog robust

test_expect_success 'native output differs (token)' '
	differs_natively "$T/robust"
'
test_expect_success 'EOWNERDEAD as natively, and replay' '
	rec_replay_cmp "$T/robust" &&
	grep -q "^a thread ended holding 0: 0 0$" rec.out &&
	grep -q "^a thread ended holding 1: EOWNERDEAD 0$" rec.out &&
	grep -q "^a thread ended holding 2: EOWNERDEAD EOWNERDEAD$" rec.out
'
test_done
