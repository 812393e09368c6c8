#!/bin/bash
# t8060-gdb-goto-view.sh: after monitor goto and monitor restart, gdb shows
# the new place (registers, backtrace) with no maint command: gdbstub.gdb's
# hook makes it re-read, loaded by hand and by gdbstub --gdb itself.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
hooks=$TEST_DIR/../gdbstub/gdbstub.gdb
getrandom=$(grep -n 'getrandom(&seed' "$src" | cut -d: -f1)

test_expect_success 'record dbg; tdump finds its getrandom' '
	rec_replay_cmp "$T/dbg" &&
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^getrandom\\(/ { print \$1; exit }" dump >ev.getrandom &&
	test -s ev.getrandom
'
# The commands of both sessions: at square, a checkpoint; back to the
# getrandom in main; then back to the checkpoint.
cat >moves.gdb <<END2
set pagination off
break square
continue
monitor checkpoint
echo @@ square\n
info registers rip
bt
echo @@ goto\n
monitor goto $(cat ev.getrandom 2>/dev/null)
info registers rip
bt
echo @@ restart\n
monitor restart 1
info registers rip
bt
echo @@ end\n
END2

# where FILE: checks the three sections of a session's output.
where () {
	gdb_section square "$1" >sq &&
	gdb_section goto "$1" >go &&
	gdb_section restart "$1" >rs &&
	grep -E "^rip +0x[0-9a-f]+ +0x[0-9a-f]+ <square" sq &&
	grep -E "^#0 +square " sq &&
	! grep -E "^rip .*<square" go &&
	! grep -E "^#0 +square " go &&
	grep -E "^#[1-9] +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$getrandom$" go &&
	grep -E "^rip +0x[0-9a-f]+ +0x[0-9a-f]+ <square" rs &&
	grep -E "^#0 +square " rs &&
	test "$(grep "^rip" sq)" = "$(grep "^rip" rs)"
}

test_expect_success 'gdb with gdbstub.gdb: goto and restart show the new place' '
	{ echo "source $hooks" &&
	  echo "target remote | $REWIND_BIN/gdbstub $trace" &&
	  cat moves.gdb; } >s.gdb &&
	gdb_run "$T/dbg" s.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	where gdb.out
'
test_expect_success 'gdbstub --gdb loads it itself' '
	run_tool gdbstub --gdb "$trace" <moves.gdb >own.out 2>&1
	not_signalled $? &&
	sed "s/^(gdb) //; s/(gdb) //g" own.out >own &&
	grep -q "^@@ end" own &&
	where own
'
test_done
