#!/bin/bash
# t9001-tseek-seek-output.sh: the output of a replay that starts at a
# checkpoint is, byte for byte, the rest of a full replay's output, on
# both streams, and each line comes from the same event.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines random

# between FILE LO HI: the lines of a replay -M output written at events
# after LO, up to HI.
between () {
	awk -v lo="$2" -v hi="$3" "{ e = substr(\$1, 2, length(\$1) - 2) + 0 } e > lo + 0 && e <= hi + 0" "$1"
}

test_expect_success 'record lines 40 mix (stdout and stderr)' '
	differs_natively "$T/lines" 40 mix &&
	rec_replay_cmp "$T/lines" 40 mix &&
	run_tool replay -M "$trace" >full.M 2>full.M.err &&
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(/ { print \$1 }" dump >writes &&
	n=$(sed -n 35p writes) && test -n "$n" &&
	run_tool tseek --every 12 "$trace" &&
	run_tool tseek --list "$trace" >list &&
	cp=$(awk -v n="$n" "NR > 1 && \$1 <= n + 0 { c = \$1 } END { print c + 0 }" list) &&
	test "$cp" -gt 0
'
# Which writes fall between the checkpoint and event n depends on where
# the events are, not on timing: the test takes both from the trace.
test_expect_success 'replay -M --to a late write from a checkpoint: the rest of the output' '
	run_tool replay -M --to $n "$trace" >seek.M 2>seek.M.err &&
	grep -q "^\[$n:[0-9]*\] " full.M full.M.err &&
	sed "/^-- stopped after event /,\$d" seek.M >out &&
	between full.M "$cp" "$n" >want &&
	between full.M.err "$cp" "$n" >want.err &&
	{ test -s want || test -s want.err; } &&
	test_cmp_bytes want out &&
	test_cmp_bytes want.err seek.M.err &&
	between full.M 0 "$cp" >before && between full.M.err 0 "$cp" >>before &&
	test -s before
'
test_expect_success 'random: registers at every event agree with and without the index' '
	differs_natively "$T/random" &&
	rec_replay_cmp "$T/random" &&
	tr2=$trace &&
	run_tool tdump "$tr2" >dump2 &&
	last2=$(awk "\$3 == \"syscall\" { e = \$1 } END { print e }" dump2) &&
	for n in $(seq 2 $last2); do
		run_tool replay --to $n "$tr2" 2>/dev/null | sed -n "/^-- stopped/,\$p" >b.$n || return 1
	done &&
	run_tool tseek --every 2 "$tr2" &&
	for n in $(seq 2 $last2); do
		run_tool replay --to $n "$tr2" 2>err.$n | sed -n "/^-- stopped/,\$p" >a.$n || return 1
		# Only event n itself may write (to stderr) again.
		{ test ! -s err.$n || grep -q "^$n .* write(2," dump2; } &&
		test_cmp_bytes b.$n a.$n || return 1
	done
'
test_done
