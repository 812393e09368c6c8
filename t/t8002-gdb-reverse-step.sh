#!/bin/bash
# t8002-gdb-reverse-step.sh: reverse-next steps back over calls,
# reverse-step enters them, reverse-finish leaves square() for its call in
# main, and reverse-stepi then stepi comes back to the same registers.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
loop=$(grep -n '/\* LOOP \*/' "$src" | cut -d: -f1)
bugcall=$(grep -n 'bug(seed % 3);' "$src" | cut -d: -f1)
walk=$(grep -n 'for (last = head;' "$src" | cut -d: -f1)
handler=$(grep -n '/\* HANDLER \*/' "$src" | cut -d: -f1)
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
test_expect_success 'gdb: from the walk, step backwards' '
	cat >back.gdb <<-END &&
	break dbg.c:$walk
	continue
	delete
	echo @@ rnext-bug\n
	reverse-next
	bt
	echo @@ rnext-test\n
	reverse-next
	echo @@ rnext-square\n
	reverse-next
	print i
	bt
	echo @@ rnext-test2\n
	reverse-next
	echo @@ rstep\n
	reverse-step
	print x
	bt
	echo @@ rfinish\n
	reverse-finish
	print i
	bt
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb back.gdb
	not_signalled $? &&
	mv gdb.out back.out &&
	grep -q "^@@ end" back.out
'
test_expect_success 'reverse-next from the walk lands on the bug() call, in main' '
	gdb_section rnext-bug back.out >s &&
	grep -E "^$bugcall\s+bug\(seed % 3\);" s &&
	grep -Ex "#0 +main \(\) at .*dbg\.c:$bugcall" s &&
	! grep -q "^#1" s
'
test_expect_success 'reverse-next again: the loop test, then the LOOP line' '
	gdb_section rnext-test back.out | grep -E "^$((loop - 1))\s+for \(int i = 0; i < len; i\+\+\)" &&
	gdb_section rnext-square back.out >s &&
	grep -E "^$loop\s+total \+= square\(i\); /\* LOOP \*/" s &&
	grep -Ex "#0 +main \(\) at .*dbg\.c:$loop" s &&
	! grep -q "square (" s &&
	test "$(gdb_values rnext-square back.out)" = $(($(rec_len) - 1))
'
test_expect_success 'reverse-step from the loop test enters square(len - 2)' '
	gdb_section rnext-test2 back.out | grep -E "^$((loop - 1))\s+for" &&
	gdb_section rstep back.out >s &&
	grep -E "^(0x[0-9a-f]+ in )?square \(x=(x@entry=)?$(($(rec_len) - 2))\) at .*dbg\.c:[0-9]+$" s &&
	test "$(gdb_values rstep back.out)" = $(($(rec_len) - 2)) &&
	grep -E "^#1 +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop$" s
'
test_expect_success 'reverse-finish leaves square() for its call on the LOOP line' '
	gdb_section rfinish back.out >s &&
	grep -Ex "0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop" s &&
	grep -E "^$loop\s+total \+= square\(i\); /\* LOOP \*/" s &&
	grep -Ex "#0 +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$loop" s &&
	! grep -q "^#1" s &&
	test "$(gdb_values rfinish back.out)" = $(($(rec_len) - 2))
'

# Twenty places: ten from the handler's entry on, through the signal's
# return into tgkill and raise(); five from the walk back into bug(); five
# from square()'s last call on, back into main. At each, the registers
# before reverse-stepi and after the stepi that follows must be the same,
# and the pc must have moved in between.
test_expect_success 'gdb: reverse-stepi then stepi at twenty places' '
	cat >rsi.gdb <<-END &&
	define place
	  printf "@@ A %d\\n", \$arg0
	  info registers
	  reverse-stepi
	  printf "@@ back %d\\n", \$arg0
	  print/x \$pc
	  stepi
	  printf "@@ B %d\\n", \$arg0
	  info registers
	  printf "@@ moved\\n"
	end
	break dbg.c:$handler
	continue
	set \$i = 0
	while \$i < 10
	  place \$i
	  stepi 3
	  set \$i = \$i + 1
	end
	delete
	break dbg.c:$walk
	continue
	while \$i < 15
	  place \$i
	  reverse-stepi 3
	  set \$i = \$i + 1
	end
	delete
	break square
	reverse-continue
	while \$i < 20
	  place \$i
	  stepi 2
	  set \$i = \$i + 1
	end
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb rsi.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'each place: same registers after reverse-stepi, stepi' '
	regs="^(r[a-z0-9]+|e[a-z]+|[c-gs]s) +0x" &&
	for i in $(seq 0 19); do
		gdb_section "A $i" | grep -E "$regs" >a.$i &&
		gdb_section "B $i" | grep -E "$regs" >b.$i &&
		test $(wc -l <a.$i) = 24 &&
		test_cmp_bytes a.$i b.$i || return 1
	done
'
test_expect_success 'reverse-stepi moved; the twenty places differ' '
	for i in $(seq 0 19); do
		a=$(awk "/^rip /{ print \$2 }" a.$i) &&
		b=$(gdb_values "back $i") &&
		test -n "$b" && test "$a" != "$b" || return 1
	done &&
	test $(for i in $(seq 0 19); do md5sum <a.$i; done | sort -u | wc -l) = 20
'
test_expect_success 'the places cross the handler, the signal and square()' '
	grep -q "<handler>" a.0 &&
	gdb_section "A 0" | grep -q "^__pthread_kill_implementation (" &&
	cat a.* | grep -q "<__restore_rt>" &&
	cat a.* | grep -q "<square" &&
	cat a.* | grep -q "<bug"
'
test_done
