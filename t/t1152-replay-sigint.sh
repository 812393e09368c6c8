#!/bin/bash
# t1152-replay-sigint.sh: SIGINT (^C) stops replay, replay --to and tseek
# at once: the replayed processes die, tseek leaves no seek.new/ behind,
# and each exits 130.
. "$(dirname "$0")/test-lib.sh"
require_tprog longrun

# ended PID: waits (up to $REWIND_TIMEOUT s) for background job PID and
# leaves its status in $st; kills it and fails when it runs on.
ended () {
	if ! timeout "$REWIND_TIMEOUT" tail --pid="$1" -f /dev/null; then
		echo "still running after $REWIND_TIMEOUT s"
		kill -9 "$1"
		wait "$1"
		return 1
	fi
	wait "$1"
	st=$?
}

# none_left: no process runs the program copy of this file any more
# (SIGKILL takes a moment to end one).
none_left () {
	local i=0
	while pgrep -f -- "$scratch/lr" >/dev/null; do
		i=$((i + 1))
		if [ $i -gt $((REWIND_TIMEOUT * 20)) ]; then
			echo "left running:"
			pgrep -af -- "$scratch/lr"
			return 1
		fi
		sleep 0.05
	done
}

# interrupt TOOL ARGS...: runs the tool in the background, sends it SIGINT
# once the replayed program printed its first line (or, for tseek, once
# seek.new exists), and expects status 130 and no process left.
interrupt () {
	# Emptied here, not by the job's redirection: the job may open it
	# after wait_for read the last call's "running pid", and a SIGINT
	# sent before the tool set its handler is lost (a background job
	# has SIGINT ignored), and it runs to its end with status 0.
	: >int.out
	"$@" >int.out 2>int.err </dev/null &
	local pid=$!
	if [ "$1" = tseek ]; then
		local i=0
		while ! ls "$trace/seek.new" 2>/dev/null | grep -q "^cp-"; do
			i=$((i + 1))
			[ $i -le $((REWIND_TIMEOUT * 20)) ] || { echo "no checkpoint"; kill -9 $pid; return 1; }
			sleep 0.05
		done
	else
		wait_for int.out "^running pid" || { kill -9 $pid; return 1; }
	fi
	kill -INT $pid
	ended $pid || return 1
	expect_status "$st" 130 || { cat int.err; return 1; }
	! grep -q "^done" int.out &&
	none_left
}

# The recording runs for seconds (15,000 rounds), and so does each replay
# of it: the polling shell, starved on a loaded machine, must still send
# SIGINT before a replay could end by itself.
test_expect_success 'record a program that computes for a while' '
	cp "$T/longrun" "$scratch/lr" || return 1
	trace=$scratch/tr
	rm -f stop
	run_tool rec -o "$trace" "$scratch/lr" "$scratch/stop" >rec.out 2>rec.err &
	wait_for rec.out "^round 15000 " &&
	touch stop &&
	ended $! &&
	expect_status "$st" 0 &&
	grep -q "^done" rec.out
'
test_expect_success 'SIGINT stops replay' '
	interrupt replay "$trace"
'
test_expect_success 'SIGINT stops replay --to' '
	last=$(run_tool tdump "$trace" | tail -n 1 | cut -d" " -f1) &&
	interrupt replay --to "$last" "$trace"
'
test_expect_success 'SIGINT stops tseek, which leaves no seek directory' '
	interrupt tseek --every 50 "$trace" &&
	test ! -e "$trace/seek.new" &&
	test ! -e "$trace/seek"
'
test_done
