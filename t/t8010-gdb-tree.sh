#!/bin/bash
# t8010-gdb-tree.sh: gdb on a process tree (tree.c): breakpoints stop only
# in the debugged process (a forked child runs its copy of the code
# untouched), forwards and back; gdbstub -p PID debugs one child.
. "$(dirname "$0")/test-lib.sh"
require_tprog tree
require_gdb

tr=$scratch/trace.1
# The format strings say() stopped with, in a section.
fmts () { gdb_section "$1" gdb.out | sed -nE 's/^(Thread [0-9]+ hit )?Breakpoint 1, say \(fmt=.* "(.*)\\n"\) at .*/\2/p'; }

test_expect_success 'tree prints something else each native run' '
	differs_natively "$T/tree"
'
test_expect_success 'record tree; replay matches' '
	RR_EXPECT=2 rec_replay_cmp "$T/tree" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: break say, to the end and back' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break say
	echo @@ fwd\n
	set \$i = 0
	while \$i < 6
	continue
	set \$i = \$i + 1
	end
	echo @@ end\n
	continue
	echo @@ back\n
	set \$i = 0
	while \$i < 6
	reverse-continue
	set \$i = \$i + 1
	end
	echo @@ begin\n
	reverse-continue
	echo @@ done\n
	END
	gdb_run "$T/tree" a.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out
'
test_expect_success 'the first process stops at its six calls, not its child'"'"'s' '
	fmts fwd >fwd &&
	cat >want <<-\END &&
	echo child %d: status 0x%04x
	vfork child %d: status 0x%04x
	writer child %d: status 0x%04x
	killed child %d: waitid code %s signal %d
	pipe writer child %d: status 0x%04x%s
	sigchld %d
	END
	test_cmp_bytes want fwd &&
	grep -Eq "^child [0-9]+ says [0-9a-f]{8}$" gdb.out
'
test_expect_success 'at the end, and back through the same stops' '
	gdb_section end gdb.out | grep -qx "No more reverse-execution history." &&
	fmts back >back &&
	tac want >rwant &&
	test_cmp_bytes rwant back &&
	gdb_section begin gdb.out | grep -qx "No more reverse-execution history."
'
test_expect_success 'gdbstub -p: the writer child'"'"'s say, the end, and back' '
	pid=$(sed -nE "s/^writer child ([0-9]+): .*/\1/p" rec.out) &&
	test -n "$pid" &&
	cat >p.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub -p $pid $tr
	echo @@ start\n
	info threads
	break say
	echo @@ fwd\n
	continue
	print (char)fmt[0]
	echo @@ end\n
	continue
	echo @@ back\n
	reverse-continue
	echo @@ begin\n
	reverse-continue
	echo @@ done\n
	END
	gdb_run "$T/tree" p.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	gdb_section start gdb.out | grep -Eq "^\* +1 +Thread $pid " &&
	test "$(fmts fwd)" = "child %d says %08x" &&
	gdb_section end gdb.out | grep -qx "No more reverse-execution history." &&
	test "$(fmts back)" = "child %d says %08x" &&
	gdb_section begin gdb.out | grep -qx "No more reverse-execution history."
'
test_expect_success 'gdbstub -p on each process of a pipeline: its own write(2)' '
	RR_EXPECT=0 rec_prog sh -c "ls / | sort | head -n 3" &&
	check_status rec.status 0 &&
	run_tool tdump "$trace" >dump &&
	sed -nE "s/.* = ([0-9]+) \(new process [0-9]+\)$/\1/p" dump >pids &&
	test $(wc -l <pids) = 3 &&
	bad= &&
	while read -r pid; do
		timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "set pagination off" \
			-ex "set breakpoint pending on" \
			-ex "target remote | $REWIND_BIN/gdbstub -p $pid $trace" \
			-ex "break write" -ex continue -ex "info threads" </dev/null >gdb.out 2>&1
		not_signalled $? &&
		grep -Eq "^Breakpoint 1(\.[0-9]+)?, (__GI___libc_)?write \(fd=1," gdb.out &&
		grep -Eq "^\* +1 +Thread $pid " gdb.out || { echo "process $pid:"; cat gdb.out; bad=1; }
	done <pids &&
	test -z "$bad"
'
test_expect_success 'gdbstub -p with no such process: one line, status 2' '
	run_tool gdbstub -p 1 "$tr" </dev/null >out 2>err
	expect_status $? 2 &&
	one_line_error err "^gdbstub: -p 1: the trace has no process 1"
'
test_done
