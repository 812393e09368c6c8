#!/bin/bash
# t2224-replay-thread-churn.sh: a program that makes and joins threads one
# after another (handoff.c; LTP's keyctl02 makes 80,000) replays in the
# memory its live threads need: the engine drops the slots of gone
# threads in batches (eng_drop_gone), where every lookup and every
# thread's end walked all it ever had (keyctl02: 163 s, 59x native).
# Replay, tseek's checkpoints among the drops, and gdbstub to the end and
# back all still find every thread.
. "$(dirname "$0")/test-lib.sh"
require_tprog handoff
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'output differs between native runs' '
	differs_natively "$T/handoff" 20
'
test_expect_success '400 threads made and joined: replayed byte for byte' '
	rec_replay_cmp "$T/handoff" 400 &&
	grep -q "joined 400 " rec.out &&
	churn=$trace && cp rec.out churn.out &&
	run_tool tdump "$trace" >dump &&
	test $(grep -c " task-exit " dump) -ge 400
'
# peak KIB TRACE: replay's peak resident memory in KiB (getrusage of the
# child).
peak () {
	python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$REWIND_BIN/replay" "$1"
}
# ASan keeps what is freed in quarantine: its peaks say nothing here.
grep -q __asan_init "$REWIND_BIN/replay" 2>/dev/null || test_set_prereq NOASAN
test_have_prereq PYTHON && test_have_prereq NOASAN && test_set_prereq PEAK
test_expect_success PEAK 'replay of 3,000 threads needs no more memory than of 300' '
	rec_prog "$T/handoff" 300 && check_status rec.status 0 && small=$trace &&
	rec_prog "$T/handoff" 3000 && check_status rec.status 0 && big=$trace &&
	a=$(peak "$small") && b=$(peak "$big") &&
	echo "replay peaks: $a KiB (300 threads), $b KiB (3000)" &&
	test $b -lt $((a + 4096))
'
test_expect_success 'tseek checkpoints among the ends; replay --to from one prints what it did without' '
	trace=$churn &&
	end=$(awk "END { print \$1 }" dump) &&
	to=$((end * 3 / 4)) &&
	run_tool replay --to $to "$trace" >before 2>&1 &&
	run_tool tseek --quiet --every $((end / 5)) "$trace" &&
	run_tool tseek --list "$trace" >list &&
	test $(sed 1d list | wc -l) -ge 3 &&
	run_tool replay --to $to "$trace" >after 2>after.err &&
	test ! -s after.err &&
	sed -n "/^-- stopped after event /,\$p" before >want &&
	sed -n "/^-- stopped after event /,\$p" after >got &&
	test -s want && test_cmp_bytes want got &&
	run_tool replay "$trace" >again &&
	test_cmp_bytes churn.out again
'
test_expect_success GDB 'gdbstub runs it to its end and back to its start' '
	trace=$churn &&
	rm -rf "$trace/seek" &&
	gdb_end_and_back "$T/handoff"
'
test_done
