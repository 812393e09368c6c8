#!/bin/bash
# t9022-tseek-threads-interval.sh: the ends of threads and child processes
# force no checkpoint: with an interval that never comes due, tseek on a
# program with 64 threads and 8 children makes one checkpoint, just
# before the program's exit, and with --every N about one per N events;
# replay --to from that last checkpoint prints what it printed before;
# a program killed by a signal gets its last one before the signal.
. "$(dirname "$0")/test-lib.sh"
require_tprog manythreads
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'record manythreads 64 8' '
	rec_replay_cmp "$T/manythreads" 64 8 &&
	run_tool tdump "$trace" >dump &&
	test $(grep -c " exit(0) = ?" dump) = 64 &&
	test $(grep -c " task-exit " dump) -ge 72
'
test_expect_success 'an interval never due: one checkpoint, the one before the exit' '
	end=$(awk "END { print \$1 }" dump) &&
	fin=$(awk -v e=$end "\$1 == e - 1" dump) &&
	echo "$fin" | grep -q " exit_group(0) = ?" &&
	run_tool replay --to $((end - 2)) "$trace" >before 2>&1 &&
	run_tool tseek --interval 100000 "$trace" >out 2>err &&
	cat err &&
	run_tool tseek --list "$trace" >list &&
	test $(sed 1d list | wc -l) = 1 &&
	test "$(awk "NR == 2 { print \$1 }" list)" = $((end - 2)) &&
	test $(wc -l <err) = 1 &&
	grep -q "^tseek: 1 checkpoint, events $((end - 2))..$((end - 2)) of $end, " err
'
test_expect_success 'replay --to that event from the checkpoint prints what it did before' '
	run_tool replay --to $((end - 2)) "$trace" >after 2>after.err &&
	test ! -s after.err &&
	sed -n "/^-- stopped after event /,\$p" before >want &&
	sed -n "/^-- stopped after event /,\$p" after >got &&
	test -s want && test_cmp_bytes want got
'
test_expect_success '--every N: about one checkpoint per N events, whatever ends' '
	every=$((end / 4)) &&
	run_tool tseek --quiet --every $every "$trace" &&
	run_tool tseek --list "$trace" >list &&
	n=$(sed 1d list | wc -l) &&
	echo "$n checkpoints for $end events, --every $every" &&
	test $n -ge 2 && test $n -le 5
'
test_expect_success 'a program killed by a signal: one checkpoint before the signal, and replay --to it' '
	rec_prog sh -c "echo before; kill -TERM \$\$; echo never" &&
	check_status rec.status 143 &&
	run_tool tdump "$trace" >kdump &&
	kend=$(awk "END { print \$1 }" kdump) &&
	awk -v e=$kend "\$1 == e - 1" kdump | grep -q " signal SIGTERM " &&
	run_tool replay --to $((kend - 1)) "$trace" >kbefore 2>&1 &&
	run_tool tseek --interval 100000 "$trace" >out 2>err &&
	cat err &&
	run_tool tseek --list "$trace" >klist &&
	test "$(sed 1d klist | cut -d" " -f1)" = $((kend - 2)) &&
	run_tool replay --to $((kend - 1)) "$trace" >kafter 2>kerr &&
	test ! -s kerr &&
	sed -n "/^-- stopped after event /,\$p" kbefore >want &&
	sed -n "/^-- stopped after event /,\$p" kafter >got &&
	test -s want && test_cmp_bytes want got
'
test_done
