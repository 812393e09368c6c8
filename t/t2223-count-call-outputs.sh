#!/bin/bash
# t2223-count-call-outputs.sh: a thread's point is taken while another
# thread is inside a call that writes as it goes (getrandom of 32 MiB).
# The kernel has written part of the buffer in the recording, replay at
# that call's entry none of it: rec leaves what a call under way may
# write out of the point's hashes, as dead (IT_DEAD), and the trace
# replays (with the hashes, replay went past the point: gdb's pread64 of
# /proc/PID/mem into its stack did that in t1195 under load).
. "$(dirname "$0")/test-lib.sh"
require_tprog callout

test_expect_success 'callout prints something else each native run' '
	differs_natively "$T/callout"
'
# A point between a getrandom's entry and its end, in the dump: the case.
inside () {
	awk '$3 == "syscall" && $4 ~ /^getrandom\(""/ && $NF == "..." { open[$2] = 1 }
		$3 == "sysret" { delete open[$2] }
		$3 == "preempt" && / \(point: / { for (t in open) if (t != $2) hit = 1 }
		END { exit !hit }' "$1"
}
test_expect_success 'three recordings replay byte for byte; points fall inside the calls' '
	found=0 &&
	for i in 1 2 3; do
		rec_replay_cmp "$T/callout" || return 1
		run_tool tdump "$trace" >dump.$i &&
		if inside dump.$i; then found=1; fi
	done &&
	if grep -q "^0 .* start .*counted=[1-9]" dump.1; then
		test $found = 1
	fi
'
test_expect_success 'tseek and replay --to the end of the last' '
	run_tool tseek --quiet "$trace" &&
	last=$(tail -n 1 dump.3 | cut -d" " -f1) &&
	run_tool replay --to $last "$trace" >to.out 2>to.err &&
	grep -qx -- "-- stopped after event $last --" to.out
'
test_done
