#!/bin/bash
# t2223-count-call-outputs.sh: a thread's point is taken while another
# thread is inside a call whose output the kernel has half written (a
# recv with MSG_WAITALL that got half its bytes, in callout.c). Replay,
# at that call's entry, has written none of it: rec leaves what a call
# under way may write out of the point's hashes, as dead (IT_DEAD), and
# the trace replays (with the bytes hashed, replay went past the point:
# gdb's pread64 of /proc/PID/mem into its stack did that in t1195 under
# load).
. "$(dirname "$0")/test-lib.sh"
require_tprog callout

test_expect_success 'callout prints something else each native run' '
	differs_natively "$T/callout"
'
test_expect_success 'recorded, replays byte for byte; counted, a point falls inside the recv' '
	rec_replay_cmp "$T/callout" &&
	run_tool tdump "$trace" >dump &&
	if grep -q "^0 .* start .*counted=[1-9]" dump; then
		awk '"'"'$3 == "syscall" && $4 ~ /^recvfrom\(/ && $NF == "..." { open[$2] = 1 }
			$3 == "sysret" { delete open[$2] }
			$3 == "preempt" && / \(point: / { for (t in open) if (t != $2) hit = 1 }
			END { exit !hit }'"'"' dump
	fi
'
test_expect_success 'tseek, and replay --to the end' '
	run_tool tseek --quiet "$trace" &&
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	run_tool replay --to $last "$trace" >to.out 2>to.err &&
	grep -qx -- "-- stopped after event $last --" to.out
'
test_expect_success GDB 'gdbstub runs it to its end' '
	gdb_cmp "$T/callout"
'
test_done
