#!/bin/bash
# t1166-native-signal-storm.sh: sigstorm's parent sends its child SIGWINCH
# in a loop until the child is done (twenty execs): natively the child
# ends at once. A thread rec stops for a signal that came runs on into
# it, as natively; one that gave way at each would never move while the
# sender ran (rec hung there). Counted too, where each exec's code is
# patched while the signals come.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigstorm

test_expect_success 'sigstorm prints something else each native run' '
	differs_natively "$T/sigstorm" 20
'
test_expect_success 'under rec the child ends as natively; replay matches' '
	rec_replay_cmp "$T/sigstorm" 20 &&
	grep -qx "child ok" rec.out
'
test_expect_success 'counted: the same, and replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/sigstorm" 20 &&
	grep -qx "child ok" rec.out
'
test_done
