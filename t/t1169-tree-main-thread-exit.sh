#!/bin/bash
# t1169-tree-main-thread-exit.sh: a process's first thread ends by
# pthread_exit while another joins it (rr's main_thread_exit), forty
# times. The first thread of a process stays a zombie, reported by no
# wait, until its siblings end; replay resumed it into its exit and went
# on at once, and the joiner, answered next, could run before the kernel
# had cleared the first thread's id, and wait again: "expected syscall
# write, got syscall futex", about 1 replay in 25. Replay now waits for
# the zombie (finish_exit).
. "$(dirname "$0")/test-lib.sh"
require_tprog mainexit

test_expect_success 'output differs between native runs' '
	differs_natively "$T/mainexit" 5
'
test_expect_success 'forty first threads ending before their joiners replay, three times over' '
	rec_replay_cmp "$T/mainexit" 40 &&
	grep -q "^40 children ended$" rec.out &&
	test $(grep -c "^child [0-9]* joined its first thread, token " rec.out) = 40 &&
	replay_cmp && replay_cmp
'
test_expect_success 'uncounted (REWIND_NO_COUNT=1) too' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/mainexit" 40 &&
	replay_cmp
'
test_expect_success GDB 'gdbstub runs it to its end and back to its start' '
	gdb_end_and_back "$T/mainexit"
'
test_done
