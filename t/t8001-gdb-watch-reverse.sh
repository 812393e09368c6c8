#!/bin/bash
# t8001-gdb-watch-reverse.sh: the corrupted list hunt: from the printf, a
# watchpoint on the bad node's next pointer, run backwards, finds bug()'s
# write, then push()'s; forwards again it fires with the values swapped.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
buglin=$(grep -n '/\* BUG \*/' "$src" | cut -d: -f1)
pushlin=$(grep -n 'n->next = head;' "$src" | cut -d: -f1)
walk=$(grep -n 'for (last = head;' "$src" | cut -d: -f1)
out=$(grep -n 'printf("seed' "$src" | cut -d: -f1)
tr=$scratch/trace.1
rec_len () { sed -n 's/^seed [0-9]* len \([0-9]*\) .*/\1/p' rec.out; }
# The bad node is pool[len - 1 - k]; its next was pool[len - 2 - k], which
# gdb shows as <pool+OFFSET>; k is bug()'s argument, seen in gdb.out.
bug_k () { sed -n "s/^bug (k=\([0-9]*\)) at .*dbg\.c:$buglin$/\1/p" hunt.out | head -n 1; }
# ptr: that value as gdb prints it, an extended regex.
ptr () { echo "\\(struct node \\*\\) 0x[0-9a-f]+ <pool\\+$((16 * ($(rec_len) - 2 - $(bug_k))))>"; }

cat >head.gdb <<END
set pagination off
handle SIGUSR1 nostop noprint pass
target remote | $REWIND_BIN/gdbstub $tr
break dbg.c:$out
continue
delete
END

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; replay matches' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: watch -l last->next, back twice, forwards three times' '
	cat >hunt.gdb <<-\END &&
	echo @@ watch\n
	watch -l last->next
	echo @@ rc1\n
	reverse-continue
	echo @@ rc2\n
	reverse-continue
	print used
	echo @@ c1\n
	continue
	echo @@ c2\n
	continue
	echo @@ c3\n
	continue
	echo @@ end\n
	info breakpoints
	END
	gdb_run "$T/dbg" head.gdb hunt.gdb
	not_signalled $? &&
	mv gdb.out hunt.out &&
	grep -q "^@@ end" hunt.out
'
test_expect_success 'the first reverse-continue stops on the BUG line, 0xdead old' '
	gdb_section rc1 hunt.out >rc1 &&
	test -n "$(bug_k)" &&
	grep -x "Old value = (struct node \*) 0xdead" rc1 &&
	grep -Ex "New value = $(ptr)" rc1 &&
	grep -Ex "bug \(k=[0-2]\) at .*dbg\.c:$buglin" rc1 &&
	grep -E "^$buglin\s+n->next = \(struct node \*\)\(uintptr_t\)0xdead; /\* BUG \*/" rc1
'
test_expect_success 'the second finds the write in push(), before which it was 0' '
	gdb_section rc2 hunt.out >rc2 &&
	grep -Ex "Old value = $(ptr)" rc2 &&
	grep -x "New value = (struct node \*) 0x0" rc2 &&
	grep -E "^(0x[0-9a-f]+ in )?push \(.*\) at .*dbg\.c:$pushlin$" rc2 &&
	grep -Ex "\\\$1 = $(($(rec_len) - $(bug_k)))" rc2
'
test_expect_success 'continue: the write in push() again, the values swapped' '
	gdb_section c1 hunt.out >c1 &&
	grep -x "Old value = (struct node \*) 0x0" c1 &&
	grep -Ex "New value = $(ptr)" c1 &&
	grep -E "^push \(.*\) at .*dbg\.c:$((pushlin + 1))$" c1
'
test_expect_success 'continue: then the write in bug(), after it' '
	gdb_section c2 hunt.out >c2 &&
	grep -Ex "Old value = $(ptr)" c2 &&
	grep -x "New value = (struct node \*) 0xdead" c2 &&
	grep -E "bug \(k=$(bug_k)\) at .*dbg\.c:$((buglin + 1))$" c2
'
test_expect_success 'continue: no other write up to the end' '
	gdb_section c3 hunt.out >c3 &&
	! grep -q "value =" c3 &&
	grep -x "No more reverse-execution history." c3 &&
	gdb_section end hunt.out | grep -x "	breakpoint already hit 4 times"
'
test_expect_success 'gdb: rwatch, then awatch back and forth' '
	cat >rw.gdb <<-\END &&
	set $w = &last->next
	echo @@ rwatch\n
	rwatch -l *$w
	reverse-continue
	delete
	echo @@ awatch-back\n
	awatch -l *$w
	reverse-continue
	echo @@ awatch-fwd1\n
	continue
	echo @@ awatch-fwd2\n
	continue
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb rw.gdb
	not_signalled $? &&
	mv gdb.out rw.out &&
	grep -q "^@@ end" rw.out
'
test_expect_success 'rwatch stops backwards at the read in the walk' '
	gdb_section rwatch rw.out >rwatch &&
	grep -x "Value = (struct node \*) 0xdead" rwatch &&
	grep -Ex "(0x[0-9a-f]+ in )?main \(\) at .*dbg\.c:$walk" rwatch
'
test_expect_success 'awatch stops backwards at the write in bug()' '
	gdb_section awatch-back rw.out >ab &&
	grep -x "Old value = (struct node \*) 0xdead" ab &&
	grep -Ex "New value = $(ptr)" ab &&
	grep -Ex "bug \(k=[0-2]\) at .*dbg\.c:$buglin" ab
'
test_expect_success 'awatch forwards: the write, then the read' '
	gdb_section awatch-fwd1 rw.out >af1 &&
	grep -Ex "Old value = $(ptr)" af1 &&
	grep -x "New value = (struct node \*) 0xdead" af1 &&
	gdb_section awatch-fwd2 rw.out >af2 &&
	grep -x "Value = (struct node \*) 0xdead" af2 &&
	grep -E "in main \(\) at .*dbg\.c:$walk$" af2
'
test_done
