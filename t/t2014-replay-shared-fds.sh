#!/bin/bash
# t2014-replay-shared-fds.sh: a file mapped MAP_SHARED makes rec trace the
# writes to that file through every descriptor (opened before the mapping,
# after it, a forked child's), so replay's copy of the mapping changes as
# the file did; writes to other files stay buffered.
. "$(dirname "$0")/test-lib.sh"
require_tprog shared-fds

test_expect_success 'output differs between native runs' '
	differs_natively "$T/shared-fds"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/shared-fds"
'
test_expect_success 'the mapping saw each write' '
	test "$(grep -Ec ": [0-9a-f]{8}$" rec.out)" = 3
'
test_expect_success 'the writes to the mapped file went traced' '
	"$REWIND_BIN/tdump" --json "$trace" >dump &&
	test "$(grep "\"name\":\"pwrite64\"" dump | grep -c "\"buffered\":true")" = 0 &&
	test "$(grep -c "\"name\":\"pwrite64\"" dump)" -ge 3
'
if [ -z "${REWIND_NO_BUFFER:-}" ] || [ "$REWIND_NO_BUFFER" = 0 ]; then
test_expect_success 'the writes to the other file stayed buffered' '
	test "$(grep "\"name\":\"write\"" dump | grep -c "\"buffered\":true")" -ge 200
'
fi
test_done
