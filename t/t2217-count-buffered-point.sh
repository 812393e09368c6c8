#!/bin/bash
# t2217-count-buffered-point.sh: a point of a counted thread right after
# calls the syscall buffer logged (bufpoint.c: writes to /dev/null between
# chunks of computing, a second thread spinning). Replay leaves the last
# such call out of the buffer's run, so that the thread stops at it before
# the point; that call then goes traced, and must run no more of libc's
# counted code than rec's logged one did (raw_next, lib/bufabi.h): through
# libc's write the count came two edges early and the point was not found
# (3 replays of 4). Replay, and gdbstub to the end and back, as recorded.
. "$(dirname "$0")/test-lib.sh"
require_tprog bufpoint
unset REWIND_NO_COUNT REWIND_NO_BUFFER

test_expect_success 'output differs between native runs' '
	differs_natively "$T/bufpoint"
'
# point_after_write: $trace has a point of a thread whose previous record
# is a write the buffer logged.
point_after_write () {
	tdump --json "$trace" | python3 -c "
import json, sys
last = {}
for line in sys.stdin:
    r = json.loads(line)
    if r.get(\"kind\") == \"preempt\" and r.get(\"point\") and last.get(r[\"tid\"]) == \"w\":
        sys.exit(0)
    last[r.get(\"tid\")] = \"w\" if r.get(\"name\") == \"write\" and r.get(\"buffered\") else \"\"
sys.exit(1)"
}
test_expect_success PYTHON 'points right after a logged write: replay prints the same bytes' '
	n=0 &&
	for seed in 1 2 3; do
		rec_chaos $seed "$T/bufpoint" && expect_status "$(cat rec.status)" 0 &&
		replay_cmp || return 1
		point_after_write && n=$((n + 1))
	done
	echo "$n of 3 with such a point" &&
	{ ! grep -q "^0 .* start .*counted=[1-9]" <(tdump "$trace") || test $n -ge 1; }
'
test_expect_success 'and without --chaos' '
	rec_replay_cmp "$T/bufpoint"
'
test_expect_success 'and with every call traced (REWIND_NO_BUFFER=1)' '
	REWIND_NO_BUFFER=1 rec_replay_cmp "$T/bufpoint"
'
test_done
