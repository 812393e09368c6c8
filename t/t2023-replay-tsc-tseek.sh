#!/bin/bash
# t2023-replay-tsc-tseek.sh: tseek's checkpoints of a replay whose rdtsc
# are patched (REWIND_NO_TSC_TRAP=1) keep the patched places: replay --to
# N from a checkpoint meets each later rdtsc as before, with the same
# registers.
. "$(dirname "$0")/test-lib.sh"
require_tprog tsc
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }
export REWIND_NO_TSC_TRAP=1

# stop_part FILE: replay --to's own lines (from a checkpoint, the output
# before it is not written again).
stop_part () { sed -n '/^-- stopped after event /,$p' "$1"; }

test_expect_success 'record tsc patched; pick the events of main' '
	rec_replay_cmp "$T/tsc" &&
	tdump "$trace" >dump &&
	grep -q "^0 .* rdtsc=patched" dump &&
	awk "\$3 ~ /^rdtsc/ && \$NF ~ /^0x5/ { print \$1 }" dump >evs &&
	test $(wc -l <evs) -ge 10 &&
	last=$(tail -n 1 evs) &&
	for n in $(cat evs) $((last + 1)); do
		run_tool replay --to $n "$trace" >before.$n 2>&1 || bad=1
	done &&
	test -z "$bad"
'
test_expect_success 'tseek makes checkpoints among them' '
	run_tool tseek --quiet --every 2 "$trace" >ts.out 2>ts.err &&
	test ! -s ts.err &&
	run_tool tseek --list "$trace" >list &&
	first=$(head -n 1 evs) &&
	test -n "$(awk -v f=$first "NR > 1 && \$1 > f" list)"
'
test_expect_success 'replay --to N from a checkpoint: same event and registers' '
	for n in $(cat evs) $(($(tail -n 1 evs) + 1)); do
		run_tool replay --to $n "$trace" >after.$n 2>&1 &&
		stop_part before.$n >b && stop_part after.$n >a &&
		grep -q "^rbx " a && test_cmp_bytes b a || bad=1
	done &&
	test -z "$bad"
'
test_expect_success 'a plain replay from a checkpoint writes every byte' '
	replay_cmp
'
test_done
