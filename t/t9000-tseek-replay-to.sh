#!/bin/bash
# t9000-tseek-replay-to.sh: after tseek, replay --to N starts at the
# nearest checkpoint and prints exactly the event and registers it printed
# before the index existed; a plain replay still writes every byte.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

# stop_part FILE: replay --to's own lines, from "-- stopped" on.
stop_part () { sed -n '/^-- stopped after event /,$p' "$1"; }
# out_part FILE: the program's output before them.
out_part () { sed '/^-- stopped after event /,$d' "$1"; }

test_expect_success 'lines prints something else each native run' '
	differs_natively "$T/lines" 30
'
test_expect_success 'record lines 30 and pick events' '
	rec_replay_cmp "$T/lines" 30 &&
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump >writes &&
	test $(wc -l <writes) = 30 &&
	last=$(awk "\$3 == \"syscall\" { e = \$1 } END { print e }" dump) &&
	grep -q "^$last [0-9]* syscall exit_group(" dump &&
	{ sed -n "3p;11p;17p;30p" writes; echo $((last - 1)); echo $last; } >evs &&
	for n in $(cat evs); do
		run_tool replay --to $n "$trace" >before.$n 2>before.err.$n || return 1
	done
'
test_expect_success 'tseek --every 4 makes checkpoints; --list shows them' '
	run_tool tseek --quiet --every 4 "$trace" >ts.out 2>ts.err &&
	test ! -s ts.out && test ! -s ts.err &&
	test -f "$trace/seek/index" &&
	run_tool tseek --list "$trace" >list &&
	head -n 1 list | grep -q "^event " &&
	test $(grep -c " seek/cp-[0-9]* " list) -gt 5 &&
	for e in $(awk "NR > 1 { print \$1 }" list); do
		test -f "$trace/seek/cp-$e" || return 1
	done
'
test_expect_success 'replay --to N: same event and registers, no message' '
	for n in $(cat evs); do
		run_tool replay --to $n "$trace" >after.$n 2>after.err.$n || return 1
		test ! -s after.err.$n || { cat after.err.$n; return 1; }
		stop_part before.$n >want && stop_part after.$n >got &&
		test $(wc -l <got) -gt 20 &&
		test_cmp_bytes want got || return 1
	done
'
test_expect_success 'it starts at a checkpoint: less output, and the same tail' '
	n=$(tail -n 1 evs) &&
	out_part before.$n >full && out_part after.$n >tail &&
	test $(wc -l <tail) -lt $(wc -l <full) &&
	test $(wc -l <tail) -lt 5 &&
	tail -n $(wc -l <tail) full >want &&
	test_cmp_bytes want tail
'
test_expect_success 'a plain replay still writes every byte' '
	replay_cmp "$trace"
'
test_expect_success 'tseek again replaces the index; default interval works' '
	run_tool tseek --quiet "$trace" 2>ts2.err &&
	test ! -s ts2.err &&
	run_tool tseek --list "$trace" >list2 &&
	test $(grep -c " seek/cp-" list2) -ge 1 &&
	test ! -e "$trace/seek.new" && test ! -e "$trace/seek.old" &&
	n=$(tail -n 1 evs) &&
	run_tool replay --to $n "$trace" >again 2>again.err &&
	test ! -s again.err &&
	stop_part before.$n >want && stop_part again >got &&
	test_cmp_bytes want got
'
test_expect_success 'bad options are refused with status 2' '
	run_tool tseek --every 0 "$trace" 2>e1; expect_status $? 2 &&
	run_tool tseek --interval x "$trace" 2>e2; expect_status $? 2
'
test_done
