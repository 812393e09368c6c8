#!/bin/bash
# t2212-count-chaos.sh: rec --chaos on a counted recording arms each
# thread to be preempted 1 to 2^20 counted edges ahead (rec/advance.c):
# lostupd's two threads, whose window between read and write of a shared
# total holds no system call, are switched inside it, and each switch is
# a point replay reaches by its count. Without counting, --chaos switches
# only where a timer tick happens to stop a thread.
. "$(dirname "$0")/test-lib.sh"
require_tprog lostupd

# rec_chaos DIR: records lostupd with --chaos into DIR, leaving rec.out,
# rec.err (without rec's own lines) and rec.status for replay_cmp.
rec_chaos () {
	trace=$scratch/$1
	run_tool rec -o "$trace" --chaos "$T/lostupd" >rec.out 2>rec.err.raw </dev/null
	echo $? >rec.status
	awk 'NR <= 2 && /^rec: (recording to |chaos seed [0-9]+$)/ { next } { print }' \
		rec.err.raw >rec.err
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
}

test_expect_success 'lostupd prints something else each native run' '
	differs_natively "$T/lostupd"
'
# points: the preemptions of $trace that are points. race_shows: the
# recording just made lost additions. chaos_shows: it has 3 points or
# more and lost additions (the tests below), or is not counted.
points () { run_tool tdump "$trace" | grep -c " preempt at .*(point: "; }
race_shows () { grep -Eq "^lost [1-9][0-9]* of 6000000, token [0-9a-f]{8}$" rec.out; }
chaos_shows () { ! counted || { test "$(points)" -ge 3 && race_shows; }; }
# The switches are random: a recording where one thread ran most of its
# loop alone (its sibling started late on a loaded machine) shows few.
# Up to three recordings are made for one that shows them.
test_expect_success 'counted --chaos: replay prints the same bytes' '
	for try in 1 2 3; do
		rec_chaos tr.counted.$try &&
		check_status rec.status 0 || return 1
		chaos_shows && break
	done
	replay_cmp
'
# Each thread runs at most 2^20 of its edges between switches while the
# other can take over: lostupd takes some 24 million (a few per turn);
# 9 to 32 switches came in 60 recordings (fewer than 24M / 2^20 where
# one thread ran alone, its sibling done or not yet started), each at a
# counted edge, so each a point: 3 at the least.
test_expect_success 'counted --chaos: switches inside the loops, each a point' '
	if counted; then
		n=$(points) &&
		echo "$n points" &&
		test "$n" -ge 3
	fi
'
# A switch between a thread's read and its write loses what the other
# added meanwhile: with 10 switches or more at random edges, most of
# them inside the window, some additions are lost.
test_expect_success 'counted --chaos: the race shows' '
	if counted; then
		race_shows
	fi
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_expect_success 'not counted, --chaos: replay prints the same bytes' '
	REWIND_NO_COUNT=1 rec_chaos tr.plain &&
	check_status rec.status 0 &&
	! counted &&
	replay_cmp
'
test_done
