#!/bin/bash
# t2205-count-point-tdump.sh: tdump tells a point (re-executed to) from a
# preemption whose state replay sets, in text and in JSON ("point").
# The points' records carry no memory bytes, so a counted trace of
# preempts.c is smaller than the same program's with REWIND_NO_POINTS=1.
. "$(dirname "$0")/test-lib.sh"
require_tprog preempts

test_expect_success 'record preempts twice: with points, and with REWIND_NO_POINTS=1' '
	rec_replay_cmp "$T/preempts" &&
	pts=$trace &&
	REWIND_NO_POINTS=1 rec_replay_cmp "$T/preempts" &&
	whole=$trace &&
	run_tool tdump "$pts" >dump.p &&
	run_tool tdump "$whole" >dump.w &&
	grep -q " preempt at " dump.p &&
	grep -q " preempt at " dump.w
'
if counted "$pts"; then
	test_set_prereq COUNTED
fi
test_expect_success COUNTED 'text: a point says so, a whole state says replay sets it' '
	grep -q " preempt at 0x[0-9a-f]* (point: replay runs the thread to it: registers, " dump.p &&
	grep -q " preempt at 0x[0-9a-f]* (replay sets its state, gdbstub runs the thread to it: " dump.w &&
	! grep -q " (point: " dump.w
'
test_expect_success COUNTED 'JSON: "point" true for a point, false otherwise' '
	run_tool tdump --json "$pts" | grep "\"kind\":\"preempt\"" >j.p &&
	run_tool tdump --json "$whole" | grep "\"kind\":\"preempt\"" >j.w &&
	grep -q "\"point\":true" j.p &&
	! grep -q "\"point\":true" j.w &&
	grep -q "\"point\":false" j.w
'
test_expect_success COUNTED 'points keep no memory bytes: a smaller events file' '
	p=$(stat -c %s "$pts/events") && w=$(stat -c %s "$whole/events") &&
	echo "events: $p bytes with points, $w without" &&
	test $p -lt $w
'
test_done
