#!/bin/bash
# t5011-gdb-restart-exec-child.sh: a checkpoint holding a child that has
# yet to execute a program can be returned to again and again. Each copy
# of the child that executes /bin/echo and ends sends the checkpoint's
# copy of it SIGCHLD (the parent catches it); the checkpoint must not
# take it, or the next restart fails (seen in t8010 under load, when the
# automatic checkpoints fell there).
. "$(dirname "$0")/test-lib.sh"
require_tprog execwait
require_gdb

tr=$scratch/trace.1

test_expect_success 'execwait prints something else each native run' '
	differs_natively "$T/execwait"
'
test_expect_success 'record execwait; replay matches' '
	rec_replay_cmp "$T/execwait" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: checkpoint while the child waits, to the end, restart, three times' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break mark
	continue
	echo @@ mark\n
	monitor checkpoint
	continue
	echo @@ restart1\n
	monitor restart 1
	continue
	echo @@ restart2\n
	monitor restart 1
	continue
	echo @@ restart3\n
	monitor restart 1
	continue
	echo @@ done\n
	END
	REWIND_MARK_EVERY=1000 gdb_run "$T/execwait" a.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	! grep -q "gdbstub:" gdb.out &&
	ev=$(gdb_section mark | sed -n "s/^Checkpoint 1 at event \([0-9]*\)$/\1/p") &&
	test -n "$ev" &&
	for i in 1 2 3; do
		gdb_section restart$i | grep -qx "Current event: $ev" || return 1
		test $(gdb_section restart$i | grep -cx "No more reverse-execution history.") = 1 || return 1
	done
'
test_done
