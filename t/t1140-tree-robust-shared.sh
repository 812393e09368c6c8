#!/bin/bash
# t1140-tree-robust-shared.sh: a child process that ends holding a
# process-shared robust mutex leaves it marked (FUTEX_OWNER_DIED) by the
# kernel, and the parent's next lock gets EOWNERDEAD; rec records the
# marks where it sees the end coming (the exit call, the delivery of a
# fatal signal, a kill or pidfd_send_signal with SIGKILL), and replay
# writes them there (after the end no thread of the process was left to
# show them, and replay diverged).
. "$(dirname "$0")/test-lib.sh"
require_tprog robustproc

test_expect_success 'native output differs (token)' '
	differs_natively "$T/robustproc"
'
test_expect_success 'EOWNERDEAD as natively, and replay' '
	rec_replay_cmp "$T/robustproc" &&
	grep -q "^a child ended holding it (0): status 0, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (1): status 0, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (2): status 0, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (3): signal 6, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (4): signal 9, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (5): signal 9, EOWNERDEAD$" rec.out &&
	grep -q "^a child ended holding it (6): signal 9, EOWNERDEAD$" rec.out
'
test_done
