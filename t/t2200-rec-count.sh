#!/bin/bash
# t2200-rec-count.sh: counting progress in software (the default,
# lib/count.h). counting.c's two threads compute in loops of every kind
# the counter patches (short and long backward branches, indirect calls
# and jumps) and are preempted; the trace says it was counted and gives
# each preemption's count, and replay prints the same bytes. With
# REWIND_NO_COUNT=1 as well, nothing is counted and replay still matches.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_tprog spin
# The counted runs clear REWIND_NO_COUNT, which make check's run with the
# fallbacks forced sets: they test counting itself.

test_expect_success 'counting prints something else each native run' '
	differs_natively "$T/counting" 100
'
test_expect_success 'counted: record counting; replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 100
'
test_expect_success 'counted: the start record says so, preemptions give their counts' '
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9]" dump &&
	grep -q " preempt at .* count=[0-9][0-9]*$" dump &&
	! grep " preempt at " dump | grep -v " count=[0-9]"
'
test_expect_success 'counted: tdump --json gives the count' '
	run_tool tdump --json "$trace" | grep "\"kind\":\"preempt\"" | head -1 >j &&
	grep -q "\"count\":[0-9]" j
'
test_expect_success 'counted: a thread spinning on a flag replays' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/spin" count
'
test_expect_success 'neither REWIND_NO_COUNT nor REWIND_COUNT_EAGER set: counted, lazily' '
	(unset REWIND_NO_COUNT REWIND_COUNT_EAGER &&
	 run_tool rec -o tr.default -- "$T/counting" 10 >/dev/null) &&
	counted tr.default &&
	run_tool tdump tr.default | grep "^0 .* start " >start &&
	grep -q "lazily" start || { cat start; false; }
'
test_expect_success 'REWIND_NO_COUNT=1: not counted, replay matches' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=0" dump &&
	! grep -q " count=" dump
'
test_done
