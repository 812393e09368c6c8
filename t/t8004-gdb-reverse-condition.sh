#!/bin/bash
# t8004-gdb-reverse-condition.sh: a conditional breakpoint hit backwards
# from the end, and breakpoint hit counts: every call of square() is hit
# once forwards and once backwards.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
loop=$(grep -n '/\* LOOP \*/' "$src" | cut -d: -f1)
tr=$scratch/trace.1
rec_len () { sed -n 's/^seed [0-9]* len \([0-9]*\) .*/\1/p' rec.out; }

cat >head.gdb <<END
set pagination off
handle SIGUSR1 nostop noprint pass
target remote | $REWIND_BIN/gdbstub $tr
END

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; replay matches' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr"
'
# Three scripts: an error in one (no x where it stopped) ends only that one.
test_expect_success 'gdb: to the end, then break square if x == 2 backwards' '
	cat >cond1.gdb <<-\END &&
	echo @@ end\n
	continue
	echo @@ cond\n
	break square if x == 2
	reverse-continue
	print x
	bt
	up
	print i
	END
	cat >cond2.gdb <<-\END &&
	echo @@ cond-again\n
	reverse-continue
	info breakpoints
	END
	cat >cond3.gdb <<-\END &&
	echo @@ forwards\n
	continue
	print x
	info breakpoints
	echo @@ done\n
	END
	gdb_run "$T/dbg" head.gdb cond1.gdb cond2.gdb cond3.gdb
	not_signalled $? &&
	mv gdb.out cond.out &&
	grep -q "^@@ done" cond.out
'
test_expect_success 'the end is reached first, past the output' '
	gdb_section end cond.out >end &&
	test_cmp_bytes rec.out <(grep "^seed " end) &&
	grep -x "No more reverse-execution history." end
'
test_expect_success 'reverse-continue stops in square with x == 2, i == 2 in main' '
	gdb_section cond cond.out >cond &&
	grep -E "^Breakpoint 1, square \(x=(x@entry=)?2\) at .*dbg\.c:[0-9]+$" cond &&
	grep -E "^#1 +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop$" cond &&
	printf "2\n2\n" >want &&
	gdb_values cond cond.out >got &&
	test_cmp_bytes want got
'
test_expect_success 'no other x == 2 before it: back to the start, one hit' '
	gdb_section cond-again cond.out >again &&
	grep -x "No more reverse-execution history." again &&
	! grep -q "^Breakpoint 1," again &&
	grep -x "	breakpoint already hit 1 time" again
'
test_expect_success 'forwards again it stops at the same call' '
	gdb_section forwards cond.out >fwd &&
	grep -E "^Breakpoint 1, square \(x=(x@entry=)?2\)" fwd &&
	test "$(gdb_values forwards cond.out)" = 2 &&
	grep -x "	breakpoint already hit 2 times" fwd
'
test_expect_success 'gdb: count the stops at square, forwards then backwards' '
	cat >count.gdb <<-\END &&
	break square
	set $n = 0
	continue
	while $pc == square
	  set $n = $n + 1
	  continue
	end
	echo @@ forwards\n
	print $n
	info breakpoints
	set $m = 0
	reverse-continue
	while $pc == square
	  set $m = $m + 1
	  reverse-continue
	end
	echo @@ backwards\n
	print $m
	info breakpoints
	monitor when
	echo @@ done\n
	END
	gdb_run "$T/dbg" head.gdb count.gdb
	not_signalled $? &&
	mv gdb.out count.out &&
	grep -q "^@@ done" count.out
'
test_expect_success 'forwards: one stop per call, len of them' '
	test "$(gdb_values forwards count.out)" = "$(rec_len)" &&
	gdb_section forwards count.out |
	grep -x "	breakpoint already hit $(rec_len) times"
'
test_expect_success 'backwards: as many stops, twice the hit count, at the start' '
	test "$(gdb_values backwards count.out)" = "$(rec_len)" &&
	gdb_section backwards count.out >back &&
	grep -x "	breakpoint already hit $((2 * $(rec_len))) times" back &&
	grep -x "Current event: 1" back
'
# gdb steps off a breakpoint whose condition is false with a reverse
# single-step before the next reverse-continue; that must not lose a hit.
test_expect_success 'gdb: reverse-continue, reverse-stepi, reverse-continue...' '
	cat >rsi.gdb <<-\END &&
	continue
	break square
	set $k = 0
	echo @@ calls\n
	while $k < 4
	  reverse-continue
	  printf "x = %d\n", $rdi
	  reverse-stepi
	  set $k = $k + 1
	end
	echo @@ done\n
	END
	gdb_run "$T/dbg" head.gdb rsi.gdb
	not_signalled $? &&
	mv gdb.out rsi.out &&
	grep -q "^@@ done" rsi.out
'
test_expect_success 'each reverse-continue stops at the call just before' '
	n=$(rec_len) &&
	printf "x = %d\n" $((n - 1)) $((n - 2)) $((n - 3)) $((n - 4)) >want &&
	gdb_section calls rsi.out | grep "^x = " >got &&
	test_cmp_bytes want got
'
test_done
