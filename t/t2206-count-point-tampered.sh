#!/bin/bash
# t2206-count-point-tampered.sh: a point whose recorded state replay
# does not reach is a divergence, never a silent wrong answer: with a
# register of the point's state changed, or the hash of one of its
# memory blocks, or its count, replay stops with one line naming the
# event and exits 125.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
test_have_prereq PYTHON || skip_all "no python3"

test_expect_success 'record counting with points' '
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump
'
grep -q " (point: " dump 2>/dev/null && test_set_prereq POINTS
for what in regs hash count; do
	test_expect_success POINTS "a point with its $what changed diverges, exit 125" '
		rm -rf bad && cp -r "$trace" bad &&
		ev=$(tamper_record bad point '$what') &&
		run_tool replay bad >out 2>err
		expect_status $? 125 &&
		one_line_error err "^replay: divergence at event $ev: thread [0-9]+: .*point" &&
		! test_cmp_bytes rec.out out >/dev/null
	'
done
test_expect_success POINTS 'the untouched copy still replays' '
	rm -rf same && cp -r "$trace" same &&
	replay_cmp "$scratch/same"
'
test_done
