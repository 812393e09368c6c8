#!/bin/bash
# t8032-gdb-vfork-rstep.sh: a stepi over vfork's syscall instruction in
# the parent (tree.c), and a reverse-stepi back onto it. While the child
# runs the parent is in the kernel, with no stop to read its registers at:
# the stepi failed with E01, and the reverse-stepi ended gdbstub with
# "ptrace(GETREGS) of N: No such process".
. "$(dirname "$0")/test-lib.sh"
require_tprog tree
require_gdb

tr=$scratch/trace.1

test_expect_success 'record tree; replay matches' '
	RR_EXPECT=2 rec_replay_cmp "$T/tree" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: break vfork, stepi over its syscall, reverse-stepi' '
	cat >a.gdb <<-END &&
	set pagination off
	set breakpoint pending on
	target remote | $REWIND_BIN/gdbstub $tr
	break vfork
	continue
	set \$n = 0
	while *(unsigned short *)\$pc != 0x050f && \$n < 50
	stepi
	set \$n = \$n + 1
	end
	set \$sc = \$pc
	echo @@ fwd\n
	stepi
	print \$pc == \$sc
	echo @@ back\n
	reverse-stepi
	print \$pc == \$sc
	echo @@ end\n
	END
	gdb_run "$T/tree" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'the stepi went past the syscall, the reverse-stepi back onto it' '
	! grep -q "Could not read registers" gdb.out &&
	test "$(gdb_values fwd)" = 0 &&
	test "$(gdb_values back)" = 1
'
test_done
