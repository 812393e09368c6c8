#!/bin/bash
# t8030-gdb-thread-rstep.sh: after a stop in one worker of threads.c, thread 1
# + reverse-step steps thread 1 back (gdb steps the worker back over its
# breakpoint first, then sends bs with Hc0): no stray stop in the worker,
# which gdb reported as "Thread 2 received signal SIGTRAP". And a
# reverse-step out of sched_yield in a worker stops in that worker (the
# place before its syscall comes after another thread's stretch).
. "$(dirname "$0")/test-lib.sh"
require_tprog threads
require_gdb

tr=$scratch/trace.1

test_expect_success 'record threads; replay matches' '
	rec_replay_cmp "$T/threads" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: break worker, continue 4, thread 1, reverse-step' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break worker
	continue 4
	thread 1
	echo @@ rstep\n
	reverse-step
	echo @@ after\n
	thread
	echo @@ end\n
	END
	gdb_run "$T/threads" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'no SIGTRAP: the step stayed in thread 1' '
	! grep -q "received signal SIGTRAP" gdb.out &&
	gdb_section after gdb.out | grep -q "^\[Current thread is 1 "
'
test_expect_success 'gdb: stop in a worker after sched_yield, info threads, reverse-stepi, reverse-step' '
	wline=$(grep -n "counter = v + 1;" "$TEST_DIR/prog/threads.c" | cut -d: -f1) &&
	cat >b.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break threads.c:$wline
	continue 3
	thread
	info threads
	reverse-stepi
	reverse-step
	echo @@ after\n
	thread
	echo @@ end\n
	END
	gdb_run "$T/threads" b.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'no SIGTRAP: it stepped back to the sched_yield line, in the same worker' '
	! grep -q "received signal SIGTRAP" gdb.out &&
	cur=$(grep -m1 "^\[Current thread is " gdb.out | cut -d" " -f4) &&
	gdb_section after gdb.out | grep -q "^\[Current thread is $cur " &&
	grep -Eq "^[0-9]+\s+sched_yield\(\);" gdb.out
'
test_done
