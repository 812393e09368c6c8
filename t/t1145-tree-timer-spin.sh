#!/bin/bash
# t1145-tree-timer-spin.sh: threads that spin through the same few register
# states under a 1 ms timer_create SIGALRM (spin-timer.c). A signal that
# comes when a thread is back in the registers of its last syscall's exit
# is not at that exit: replay must raise it where it came, not there (the
# handler sums the counter of the thread it interrupted). Three rounds:
# rec before the fix got one in two wrong.
. "$(dirname "$0")/test-lib.sh"
require_tprog spin-timer

test_expect_success 'output differs natively' '
	differs_natively "$T/spin-timer" 4 50000000
'
for round in 1 2 3; do
	test_expect_success "round $round: rec finishes, signals came, replay writes the recorded bytes" '
		rec_replay_cmp "$T/spin-timer" 4 50000000 &&
		cat rec.out &&
		grep -Eqx "sum [0-9a-f]{16}, signals [1-9][0-9]*, token [0-9a-f]{8}" rec.out
	'
done
test_done
