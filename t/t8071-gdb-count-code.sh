#!/bin/bash
# t8071-gdb-count-code.sh: with counting the loops of
# counting.c are patched in the replayed process, but gdb's memory reads
# show the program's own bytes: `disassemble` of the patched function
# through gdbstub is what gdb reads from the executable itself. A
# breakpoint on the first byte of a patched place stops; one on an
# instruction moved into a trampoline is refused with a console line,
# never silently missed.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_gdb
# The counted runs clear REWIND_NO_COUNT, which make check's run with the
# fallbacks forced sets: they test counting itself.

# on_trace FILE COMMAND...: a gdb script FILE on the trace, one command
# a line.
on_trace () {
	local f=$1
	shift
	{
		echo "set pagination off"
		echo "target remote | $REWIND_BIN/gdbstub $trace"
		printf "%s\n" "$@"
	} >"$f"
}

test_expect_success 'counted: record counting; replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 20
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
	on_trace live.gdb "break worker" continue "echo @@ code\n" "disassemble /r worker" \
		"x/8i worker" "echo @@ end\n" &&
	gdb_run "$T/counting" live.gdb &&
	gdb_section code >got &&
	grep -q "jne\|jmp" want &&
	test $(grep -c "<+[0-9]*>:" got) -gt 20 &&
	sed "s/^=> /   /; s/0x[0-9a-f]*//g" want >w2 &&
	sed "s/^=> /   /; s/0x[0-9a-f]*//g" got >g2 &&
	test_cmp_bytes w2 g2
'
test_expect_success 'a breakpoint on a moved instruction is refused, and says why' '
	on_trace moved.gdb "break *count_tight_cmp" "echo @@ moved\n" continue &&
	gdb_run "$T/counting" moved.gdb
	not_signalled $? &&
	grep -q "^rewind: no breakpoint at 0x[0-9a-f]*: the instruction there was moved into a trampoline" gdb.out &&
	grep -q "^Cannot insert breakpoint 1" gdb.out
'
test_expect_success 'a breakpoint on the first byte of a patched place stops' '
	on_trace first.gdb "break *count_tight_inc" "echo @@ first\n" continue continue \
		"echo @@ end\n" &&
	gdb_run "$T/counting" first.gdb
	not_signalled $? &&
	test $(gdb_section first | grep -Ec "Breakpoint 1, 0x[0-9a-f]+ in tight") = 2 &&
	! grep "^rewind:" gdb.out
'
test_done
