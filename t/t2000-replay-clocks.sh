#!/bin/bash
# t2000-replay-clocks.sh: clock_gettime through the vDSO, gettimeofday,
# time() and clock_gettime as a raw syscall replay to the recorded values.
. "$(dirname "$0")/test-lib.sh"
require_tprog clocks

test_expect_success 'output differs between native runs' '
	differs_natively "$T/clocks"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/clocks"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_expect_success 'recorded clocks are plausible' '
	grep -q "^2 realtime " rec.out &&
	now=$(date +%s) &&
	t=$(sed -n "s/^0 gettimeofday \([0-9]*\).*/\1/p" rec.out) &&
	test $((now - t)) -ge 0 && test $((now - t)) -lt 600
'
test_done
