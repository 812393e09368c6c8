#!/bin/bash
# t1197-tree-ptrace-seize-stop.sh: a tracer that seized its child, let
# it run out of a group-stop and interrupts it sees the stop's signal
# (its group is stopped still), under rec as natively, and replay says
# the same; one seized in a group-stop it was already in runs when let
# go.
. "$(dirname "$0")/test-lib.sh"
require_tprog seizestop

test_expect_success 'output differs between native runs' '
	differs_natively "$T/seizestop"
'
test_expect_success 'recorded and replayed byte for byte' '
	rec_replay_cmp "$T/seizestop"
'
test_expect_success 'the statuses are the native ones' '
	(cd "$scratch" && "$T/seizestop") >native.out 2>&1 &&
	grep -qx "interrupted in its stopped group: child status 0x80137f" native.out &&
	sed 1d native.out >want &&
	sed 1d rec.out >got &&
	test_cmp_bytes want got
'
test_expect_success 'seized in a group-stop it stopped itself in, and let go: it runs' '
	differs_natively "$T/seizestop" attach &&
	rec_replay_cmp "$T/seizestop" attach &&
	(cd "$scratch" && "$T/seizestop" attach) >native.out 2>&1 &&
	grep -qx "let go: it ran" native.out &&
	sed 1d native.out >want &&
	sed 1d rec.out >got &&
	test_cmp_bytes want got
'
test_done
