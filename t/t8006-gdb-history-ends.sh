#!/bin/bash
# t8006-gdb-history-ends.sh: both ends of the recording stop gdb with "No
# more reverse-execution history.": backwards at the first instruction,
# forwards before the exit, with the program still there to look at.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
out=$(grep -n 'printf("seed' "$src" | cut -d: -f1)
tr=$scratch/trace.1
rip () { gdb_section "$@" | awk '/^rip / { print $2 }'; }

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; tdump finds the exit_group' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr" &&
	run_tool tdump "$tr" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^exit_group\\(/ { print \$1 }" dump >ev.exit &&
	test $(wc -l <ev.exit) = 1
'
test_expect_success 'gdb: backwards from the start, then on to the end and back' '
	cat >ends.gdb <<-END &&
	set pagination off
	handle SIGUSR1 nostop noprint pass
	target remote | $REWIND_BIN/gdbstub $tr
	echo @@ first\n
	info registers rip
	echo @@ rc-start\n
	reverse-continue
	info registers rip
	monitor when
	echo @@ rsi-start\n
	reverse-stepi
	info registers rip
	echo @@ end\n
	continue
	echo @@ at-end\n
	info registers rip
	monitor when
	bt 1
	echo @@ again\n
	continue
	info registers rip
	echo @@ rstep\n
	reverse-stepi
	info registers rip
	reverse-step
	echo @@ back\n
	break dbg.c:$out
	reverse-continue
	echo @@ done\n
	END
	gdb_run "$T/dbg" ends.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out
'
test_expect_success 'reverse-continue at the start: no more history, same place' '
	gdb_section rc-start >rc &&
	grep -x "No more reverse-execution history." rc &&
	test -n "$(rip first)" &&
	test "$(rip rc-start)" = "$(rip first)" &&
	grep -q "^rip .*<_start>$" rc &&
	grep -x "Current event: 1" rc
'
test_expect_success 'reverse-stepi there says so too and stays' '
	gdb_section rsi-start | grep -x "No more reverse-execution history." &&
	test "$(rip rsi-start)" = "$(rip first)"
'
test_expect_success 'continue to the end: the output, then no more history' '
	gdb_section end >end &&
	grep "^seed " end >shown &&
	test_cmp_bytes rec.out shown &&
	grep -x "No more reverse-execution history." end
'
test_expect_success 'at the end the program has not exited: in _exit, before exit_group' '
	! grep -q "exited normally\|exited with code\|The program is not being run" gdb.out &&
	gdb_section at-end >ae &&
	grep -q "^rip .*_exit" ae &&
	grep -x "Current event: $(cat ev.exit)" ae &&
	grep -E "^#0 +(0x[0-9a-f]+ in )?(__GI__exit|_exit) " ae
'
test_expect_success 'continue again: no more history, same place' '
	gdb_section again | grep -x "No more reverse-execution history." &&
	test "$(rip again)" = "$(rip at-end)"
'
test_expect_success 'reverse-stepi and reverse-step from the end move back' '
	gdb_section rstep >rs &&
	! grep -q "No more reverse-execution history." rs &&
	test -n "$(rip rstep)" &&
	test "$(rip rstep)" != "$(rip at-end)"
'
test_expect_success 'reverse-continue from there stops at the printf' '
	gdb_section back >back &&
	grep -Ex "Breakpoint 1, main \(\) at .*dbg\.c:$out" back &&
	grep -E "^$out\s+printf\(\"seed" back
'
test_done
