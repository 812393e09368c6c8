#!/bin/bash
# t1124-tree-rt-queue.sh: real-time signals that become deliverable at
# once (unblocked together) all reach the program under rec, each with
# its value: rec holds a signal that arrives between syscalls for the
# next one, and merged held signals of one number, as if standard.
. "$(dirname "$0")/test-lib.sh"
require_tprog rtqueue

test_expect_success 'native output differs (token)' '
	differs_natively "$T/rtqueue"
'
test_expect_success 'all six arrive, and replay' '
	rec_replay_cmp "$T/rtqueue" &&
	grep -q "^token [0-9a-f]*: 6 signals: [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]*$" rec.out
'
test_done
