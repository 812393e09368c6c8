#!/bin/bash
# t8061-gdb-divert.sh: set var, call and print f(x) run on a throwaway copy
# of the process (a diversion): computed answers come back, a call that
# makes a system call is abandoned in one line, and continue afterwards
# replays exactly what was recorded.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

test_expect_success 'record dbg' '
	rec_replay_cmp "$T/dbg" &&
	sed -n "s/.* len \([0-9]*\) .*/\1/p" rec.out >len &&
	test -s len
'
# Two scripts: the abandoned call ends the first (gdb reports an error).
test_expect_success 'gdb: set var, calls, a call that writes, continue' '
	cat >div1.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break square if x == 3
	continue
	echo @@ set\n
	set var used = 5
	print used
	print used * 2
	print square(used)
	set var \$rax = 1
	print \$rax
	echo @@ push\n
	call push(42)
	print used
	print head->val
	echo @@ write\n
	print (long)write(1, &total, 8)
	END
	cat >div2.gdb <<-END &&
	echo @@ after\n
	print used
	print square(4)
	print x
	delete
	echo @@ on\n
	continue
	echo @@ end\n
	END
	gdb_run "$T/dbg" div1.gdb div2.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'the writes and calls give the computed answers' '
	printf "5\n10\n25\n1\n" >want &&
	gdb_values set >got &&
	test_cmp_bytes want got &&
	printf "6\n42\n" >want &&
	gdb_values push >got &&
	test_cmp_bytes want got
'
test_expect_success 'a call that makes a system call is abandoned in one line' '
	gdb_section write >w &&
	test "$(grep -c "^rewind: " w)" = 1 &&
	grep -x "rewind: the call made a system call (write); history is read-only, the call was abandoned" w &&
	! grep -q "^\\$" w
'
test_expect_success 'afterwards the replay is as recorded' '
	printf "%s\n16\n3\n" "$(cat len)" >want &&
	gdb_values after >got &&
	test_cmp_bytes want got &&
	grep "^seed " gdb.out >shown &&
	test_cmp_bytes rec.out shown &&
	gdb_section on | grep -x "No more reverse-execution history."
'
test_done
