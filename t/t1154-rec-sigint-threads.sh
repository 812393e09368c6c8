#!/bin/bash
# t1154-rec-sigint-threads.sh: SIGINT to rec while a threaded program
# runs (threads computing, or waiting in futex calls): rec passes it on
# and exits 130, and the trace replays to the same end, 130 and the same
# bytes, without waiting for the other threads to end by themselves.
. "$(dirname "$0")/test-lib.sh"
require_tprog longrun sigstart

# interrupted NAME PROG ARGS...: records PROG under rec with SIGINT at its
# default (a background job has it ignored), sends rec SIGINT once the
# program printed "round 200" or "running", and leaves rec.* as rec_prog.
interrupted () {
	local name=$1 pid
	shift
	trace=$scratch/$name
	: >rec.out
	"$T/sigstart" default 2 -- rec -o "$trace" -- "$@" >rec.out 2>rec.err.raw </dev/null &
	pid=$!
	wait_for rec.out "^(round 200 |running$)" || { kill -9 $pid; return 1; }
	kill -INT $pid
	if ! timeout "$REWIND_TIMEOUT" tail --pid=$pid -f /dev/null; then
		echo "rec still running after $REWIND_TIMEOUT s"
		kill -9 $pid
	fi
	wait $pid
	echo $? >rec.status
	strip_rec_line rec.err.raw >rec.err
}

test_expect_success 'threads waiting in futex calls: rec 130, replay the same' '
	interrupted wait "$T/longrun" "" 3 wait &&
	check_status rec.status 130 &&
	replay_cmp
'
test_expect_success 'threads computing with calls: rec 130, replay the same' '
	interrupted spin "$T/longrun" "" 2 &&
	check_status rec.status 130 &&
	replay_cmp
'
if command -v xz >/dev/null 2>&1; then
	test_expect_success 'sh -c "xz -T2 | sha256sum": rec 130, replay the same' '
		head -c 4000000 /dev/urandom >big &&
		interrupted xz sh -c "echo running; xz -T2 -c big | sha256sum" &&
		check_status rec.status 130 &&
		replay_cmp
	'
else
	test_skip 'sh -c "xz -T2 | sha256sum": rec 130, replay the same' 'no xz'
fi
test_done
