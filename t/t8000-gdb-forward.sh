#!/bin/bash
# t8000-gdb-forward.sh: gdb on a replay, forwards only: symbols, breakpoints
# (plain and conditional), bt, print, x, registers, finish, next, until,
# stepi, the program's output, and a refused write to memory.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
loop=$(grep -n '/\* LOOP \*/' "$src" | cut -d: -f1)
bugcall=$(grep -n 'bug(seed % 3);' "$src" | cut -d: -f1)
walk=$(grep -n 'for (last = head;' "$src" | cut -d: -f1)
# Tests share files, not variables (prove -v runs each in a subshell).
tr=$scratch/trace.1
rec_len () { sed -n 's/^seed [0-9]* len \([0-9]*\) .*/\1/p' rec.out; }
rec_total () { sed -n 's/^seed .* total \([0-9]*\) .*/\1/p' rec.out; }

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; replay matches' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr" &&
	test -n "$(rec_len)" && test -n "$(rec_total)"
'
test_expect_success 'run gdb forwards through the replay' '
	cat >fwd.gdb <<-END &&
	set pagination off
	handle SIGUSR1 nostop noprint pass
	target remote | $REWIND_BIN/gdbstub $tr
	break square
	continue
	echo @@ libs\n
	info sharedlibrary
	echo @@ bt\n
	bt
	echo @@ print\n
	print total
	print used
	print x
	echo @@ x\n
	x/4xb &total
	x/4xb &used
	echo @@ rip\n
	info registers rip
	print/x \$pc
	echo @@ cond\n
	delete
	break square if x == 3
	continue
	print x
	echo @@ finish\n
	finish
	echo @@ locals\n
	print i
	print len
	echo @@ next\n
	next
	echo @@ until\n
	until
	echo @@ next-over-bug\n
	next
	echo @@ stepi\n
	print/x \$pc
	stepi
	print/x \$pc
	echo @@ end\n
	delete
	continue
	echo @@ write\n
	set var total = 1
	END
	cat >after.gdb <<-END &&
	echo @@ after\n
	print total
	END
	gdb_run "$T/dbg" fwd.gdb after.gdb
	not_signalled $? &&
	grep -q "^@@ after" gdb.out
'
test_expect_success 'libc is listed among the shared libraries' '
	gdb_section libs >libs &&
	grep -E "^0x[0-9a-f]+ +0x[0-9a-f]+ +Yes .*/libc\.so\.6$" libs
'
test_expect_success 'break square stops in square; bt shows main at the LOOP line' '
	grep -E "^Breakpoint 1, square \(x=(x@entry=)?0\) at .*dbg\.c:" gdb.out &&
	gdb_section bt >bt &&
	grep -E "^#0 +square \(x=(x@entry=)?0\)" bt &&
	grep -E "^#1 +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop$" bt
'
test_expect_success 'print shows the globals and the argument' '
	gdb_values print >print &&
	printf "10000\n%s\n0\n" "$(rec_len)" >want &&
	test_cmp_bytes want print
'
test_expect_success 'x/4xb shows the bytes of total and used' '
	gdb_section x >x &&
	grep -E "^0x[0-9a-f]+ <total>:\s+0x10\s+0x27\s+0x00\s+0x00$" x &&
	grep -E "^0x[0-9a-f]+ <used>:\s+$(printf 0x%02x "$(rec_len)")\s+0x00\s+0x00\s+0x00$" x
'
test_expect_success 'info registers rip matches $pc, at square' '
	gdb_section rip >rip &&
	r=$(awk "/^rip / { print \$2 }" rip) &&
	test -n "$r" && test "$r" = "$(gdb_values rip)" &&
	grep -q "^rip .*<square>$" rip
'
test_expect_success 'break square if x == 3 stops with x == 3' '
	gdb_section cond >cond &&
	grep -E "^Breakpoint 2, square \(x=(x@entry=)?3\)" cond &&
	test "$(gdb_values cond)" = 3
'
test_expect_success 'finish returns 9 to main at the LOOP line' '
	gdb_section finish >finish &&
	grep -E "^0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop$" finish &&
	grep -E "^Value returned is \\\$[0-9]+ = 9$" finish
'
test_expect_success 'the locals of main: i is 3, len the recorded length' '
	gdb_values locals >locals &&
	printf "3\n%s\n" "$(rec_len)" >want &&
	test_cmp_bytes want locals
'
test_expect_success 'next goes to the loop test, until leaves the loop' '
	gdb_section next >next &&
	grep -E "^$((loop - 1))\s+for \(int i = 0" next &&
	gdb_section until >until &&
	grep -E "^$bugcall\s+bug\(seed % 3\);" until
'
test_expect_success 'next steps over bug() to the walk' '
	gdb_section next-over-bug >nob &&
	grep -E "^$walk\s+for \(last = head;" nob &&
	! grep -q "bug (" nob
'
test_expect_success 'stepi moves one instruction on the same line' '
	gdb_values stepi >pcs &&
	a=$(sed -n 1p pcs) && b=$(sed -n 2p pcs) &&
	test -n "$a" && test -n "$b" &&
	test $((b - a)) -gt 0 && test $((b - a)) -le 15 &&
	gdb_section stepi | grep -E "^0x0*${b#0x}\s+$walk\s+for \(last = head;"
'
test_expect_success 'the output shown by gdb is the recorded one, once' '
	grep "^seed " gdb.out >gdb.prog &&
	test_cmp_bytes rec.out gdb.prog &&
	run_tool replay "$tr" >replay.again 2>/dev/null &&
	test_cmp_bytes replay.again gdb.prog
'
test_expect_success 'set var total = 1 is refused and total keeps its value' '
	gdb_section write | grep "^fwd.gdb:[0-9]*: Error in sourced command file:$" &&
	test "$(gdb_values after)" = "$(rec_total)"
'
test_done
