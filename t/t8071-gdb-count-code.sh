#!/bin/bash
# t8071-gdb-count-code.sh: with counting (REWIND_COUNT=1) the loops of
# counting.c are patched in the replayed process, but gdb's memory reads
# show the program's own bytes: `disassemble` of the patched function
# through gdbstub is what gdb reads from the executable itself.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_gdb

test_expect_success 'counted: record counting; replay matches' '
	REWIND_COUNT=1 rec_replay_cmp "$T/counting" 20
'
test_expect_success 'disassemble through gdbstub shows the original code' '
	cat >file.gdb <<-END &&
	set pagination off
	echo @@ code\n
	disassemble /r worker
	x/8i worker
	echo @@ end\n
	END
	gdb_run "$T/counting" file.gdb &&
	gdb_section code >want &&
	cat >live.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break worker
	continue
	echo @@ code\n
	disassemble /r worker
	x/8i worker
	echo @@ end\n
	END
	gdb_run "$T/counting" live.gdb &&
	gdb_section code >got &&
	grep -q "jne\|jmp" want &&
	test $(grep -c "<+[0-9]*>:" got) -gt 20 &&
	sed "s/^=> /   /; s/0x[0-9a-f]*//g" want >w2 &&
	sed "s/^=> /   /; s/0x[0-9a-f]*//g" got >g2 &&
	test_cmp_bytes w2 g2
'
test_done
