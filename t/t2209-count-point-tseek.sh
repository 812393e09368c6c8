#!/bin/bash
# t2209-count-point-tseek.sh: tseek and replay --to share the engine's
# re-execution of points: checkpoints taken over a trace with points,
# and replay --to an event after them, print what replay printed
# without checkpoints.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'record counting' '
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	end=$(awk "END { print \$1 }" dump) &&
	last=$(awk "/ preempt at / { e = \$1 } END { print e + 0 }" dump) &&
	test $last -gt 0 && to=$(( (last + end) / 2 )) &&
	run_tool replay --to $to "$trace" >before 2>&1
'
test_expect_success 'tseek over it: checkpoints, and the replay still matches' '
	run_tool tseek --quiet --every $((end / 4 + 1)) "$trace" &&
	run_tool tseek --list "$trace" >list &&
	test $(sed 1d list | wc -l) -ge 2 &&
	replay_cmp
'
test_expect_success 'replay --to after the last preemption, from a checkpoint, prints the same' '
	run_tool replay --to $to "$trace" >after 2>&1 &&
	test_cmp_bytes before after
'
test_done
