#!/bin/bash
# t2132-replay-fanotify-perm.sh: a program that answers fanotify
# permission events records and replays: its child's opens wait for the
# answer, so rec turns syscall buffering off from fanotify_init on (an
# open buffered in the child waited untraced for a parent that rec never
# ran: rec hung).
. "$(dirname "$0")/test-lib.sh"
require_tprog fanperm

"$T/fanperm" >probe.out 2>&1
grep -q "^fanotify: unavailable" probe.out && skip_all "$(cat probe.out)"

test_expect_success 'native output differs (token)' '
	differs_natively "$T/fanperm"
'
test_expect_success 'the denied and the allowed open replay' '
	rec_replay_cmp "$T/fanperm" &&
	grep -q "^child open 0: Operation not permitted$" rec.out &&
	grep -q "^child open 1: allowed$" rec.out &&
	grep -q "^event 1: [0-9]* bytes, mask 0x10000, from the child 1$" rec.out
'
test_done
