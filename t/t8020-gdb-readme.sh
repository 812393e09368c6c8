#!/bin/bash
# t8020-gdb-readme.sh: the README's "Debugging backwards" session works as
# printed: its (gdb) commands, fed to gdbstub --gdb with nothing added
# (dbg's SIGUSR1 goes to its handler without a stop), print the lines the
# README shows, up to numbers that change from run to run. A signal the
# program does not catch, or a fault, still stops.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg segv
require_gdb

readme=$TEST_DIR/../README.md
# The session: from the section's heading to the paragraph after it.
awk '/^## Debugging backwards/ { on = 1; next } /^That is the write/ { on = 0 } on' \
	"$readme" >session
# norm: what differs from run to run (addresses, the list's offsets, bug's
# argument, event numbers) made the same; gdb's prompts dropped.
norm () {
	sed -E 's/^(\(gdb\) )+//; s/0x[0-9a-f]{8,}/0xADDR/g; s/pool\+[0-9]+/pool+N/g;
		s/k=[0-9]+/k=N/g; s/^Current event: [0-9]+$/Current event: N/'
}

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'the README session has gdb commands, reverse-continue among them' '
	sed -n "s/^    (gdb) //p" session | sed -E "s/ +# .*//" >cmds &&
	test -s cmds &&
	grep -qx reverse-continue cmds &&
	! grep -q "^handle " cmds
'
test_expect_success 'record dbg as the README does; replay matches' '
	rec_replay_cmp "$T/dbg" &&
	mv "$trace" bug.trace
'
test_expect_success 'gdbstub --gdb runs the commands and prints what the README shows' '
	timeout -k 5 120 gdbstub --gdb bug.trace <cmds >gdb.raw 2>&1
	not_signalled $? &&
	norm <gdb.raw >got &&
	awk "/^    \(gdb\) / { on = 1 } on" session | grep -v "^    (gdb) " |
		sed "s/^    //" | norm >want &&
	test -s want &&
	while IFS= read -r l; do
		grep -Fxq -- "$l" got || { echo "missing: $l"; cat gdb.raw; return 1; }
	done <want &&
	! grep -q "received signal" gdb.raw
'
test_expect_success 'gdb stops at SIGUSR1 by default; gdbstub passes it to the handler, where a breakpoint stops' '
	src=$TEST_DIR/prog/dbg.c &&
	handler=$(grep -n "/\* HANDLER \*/" "$src" | cut -d: -f1) &&
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | gdbstub bug.trace" \
		-ex "break dbg.c:$handler" -ex continue -ex "print sig" "$T/dbg" >h.out 2>&1
	not_signalled $? &&
	grep -Eq "^Breakpoint 1, handler \(sig=10\) at .*dbg\.c:$handler$" h.out &&
	grep -qx "\\\$1 = 10" h.out &&
	! grep -q "received signal" h.out
'
test_expect_success 'a fault stops, though the program catches it' '
	RR_EXPECT=0 rec_replay_cmp "$T/segv" &&
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | gdbstub $trace" -ex continue \
		"$T/segv" >s.out 2>&1
	not_signalled $? &&
	grep -q "^Program received signal SIGSEGV, Segmentation fault\.$" s.out
'
test_expect_success 'a signal the program does not catch stops' '
	rec_prog sh -c "kill -USR2 \$\$" &&
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | gdbstub $trace" -ex continue \
		>u.out 2>&1
	not_signalled $? &&
	grep -q "^Program received signal SIGUSR2, User defined signal 2\.$" u.out
'
test_done
