#!/bin/bash
# t1167-replay-restart-preempted.sh: rec's SIGSTOP, sent as a thread sat
# at the entry of clock_nanosleep, interrupts the sleep
# (ERESTART_RESTARTBLOCK) and then preempts the thread where the call
# ended; when rec lets it go on, the kernel restarts the sleep through
# restart_syscall. Replay sets that state where the kernel does no such
# thing, and must restart the call itself: it ran on with -516 in rax
# and the program slept again instead (LTP's futex_cmp_requeue01 under
# load). REWIND_STOP_IN_CALL makes the race at every sleep of
# restartstop.c. Replay, tseek and gdbstub to the end and back.
. "$(dirname "$0")/test-lib.sh"
require_tprog restartstop

test_expect_success 'output differs between native runs' '
	differs_natively "$T/restartstop"
'
test_expect_success 'every sleep interrupted and preempted at its end: replay prints the same bytes' '
	REWIND_STOP_IN_CALL=clock_nanosleep rec_replay_cmp "$T/restartstop" &&
	tdump "$trace" >dump &&
	test "$(grep -c "clock_nanosleep(.*ERESTART_RESTARTBLOCK" dump)" -ge 100 &&
	test "$(grep -c " restart_syscall() = 0" dump)" -ge 100
'
test_expect_success 'tseek builds an index of it, and replay --to its last event gets there' '
	run_tool tseek "$trace" >tseek.out 2>&1 &&
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	run_tool replay --to "$last" "$trace" >to.out 2>to.err </dev/null &&
	grep -qx -- "-- stopped after event $last --" to.out &&
	grep -q "^$last .* exit status 0" to.out
'
test_expect_success GDB 'gdbstub runs it to its end and back to its start' '
	gdb_end_and_back "$T/restartstop"
'
test_done
