#!/bin/bash
# t8022-gdb-mi.sh: the gdb/MI path IDEs speak. As VS Code's cppdbg does
# (miDebuggerServerAddress): gdb --interpreter=mi2 in async mode, one
# command at a time, connects to gdbstub --listen, breaks, continues,
# reverse-continues to an earlier breakpoint and forwards again. As
# Emacs's M-x gdb does: gdbstub --gdb -i=mi, commands on its stdin.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
out=$(grep -n 'printf("seed' "$src" | cut -d: -f1)

# mi CMD PATTERN: sends CMD to the gdb coprocess and reads its records
# (into mi.log) until one matches the extended regex PATTERN; the last
# record read is in $rec.
mi () {
	echo "$1" >&"${GDB[1]}"
	echo ">> $1" >>mi.log
	while IFS= read -r -t 60 rec <&"${GDB[0]}"; do
		echo "$rec" >>mi.log
		[[ $rec =~ $2 ]] && return 0
		[[ $rec == ^error* ]] && return 1
	done
	echo "no record matching $2 after: $1"
	return 1
}

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; replay matches' '
	rec_replay_cmp "$T/dbg"
'
test_expect_success 'cppdbg-style: MI in async mode against gdbstub --listen' '
	"$REWIND_BIN/gdbstub" --listen 0 "$trace" 2>stub.err &
	stub=$! &&
	for i in $(seq 50); do grep -q listening stub.err && break; sleep 0.1; done &&
	port=$(sed -n "s/^gdbstub: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p" stub.err) &&
	test -n "$port" &&
	coproc GDB { timeout -k 5 120 gdb --interpreter=mi2 -nx 2>&1; } &&
	mi "-gdb-set mi-async on" "^\^done" &&
	mi "-file-exec-and-symbols $T/dbg" "^\^done" &&
	mi "-target-select remote 127.0.0.1:$port" "^\^connected" &&
	mi "-break-insert dbg.c:$out" "^\^done,bkpt=\{number=\"1\"" &&
	mi "-exec-continue" "^\*stopped" && echo "$rec" >stop1 &&
	mi "-break-insert bug" "^\^done,bkpt=\{number=\"2\"" &&
	mi "-exec-continue --reverse" "^\*stopped" && echo "$rec" >stop2 &&
	mi "-data-evaluate-expression k" "^\^done,value=" && echo "$rec" >k &&
	mi "-exec-next --reverse" "^\*stopped" && echo "$rec" >stop3 &&
	mi "-exec-continue" "^\*stopped" && echo "$rec" >stop4 &&
	mi "-exec-continue" "^\*stopped" && echo "$rec" >stop5 &&
	mi "-interpreter-exec console \"monitor when\"" "^\^done" &&
	mi "-gdb-exit" "^\^exit" &&
	wait $stub
'
test_expect_success 'continue stopped at the printf breakpoint' '
	grep -Eq "^\*stopped,reason=\"breakpoint-hit\",.*bkptno=\"1\",.*func=\"main\",.*line=\"$out\"" stop1
'
test_expect_success 'reverse continue stopped earlier, at bug(), with its argument' '
	grep -Eq "^\*stopped,reason=\"breakpoint-hit\",.*bkptno=\"2\",.*func=\"bug\"" stop2 &&
	grep -Eq "^\^done,value=\"[0-2]\"$" k
'
test_expect_success 'reverse next left bug() for its caller; continue went forwards through both again' '
	grep -Eq "^\*stopped,reason=\"end-stepping-range\",.*func=\"main\"" stop3 &&
	grep -Eq "^\*stopped,reason=\"breakpoint-hit\",.*bkptno=\"2\",.*func=\"bug\"" stop4 &&
	grep -Eq "^\*stopped,reason=\"breakpoint-hit\",.*bkptno=\"1\",.*line=\"$out\"" stop5 &&
	grep -q "^@\"Current event: [0-9]*\\\\n\"$" mi.log
'
test_expect_success 'Emacs-style: gdbstub --gdb -i=mi, commands on stdin' '
	printf "%s\n" "-break-insert bug" "-break-insert dbg.c:$out" "-exec-continue" \
		"-exec-continue" "-exec-continue --reverse" "-gdb-exit" >emacs.in &&
	timeout -k 5 120 gdbstub --gdb -i=mi "$trace" <emacs.in >emacs.out 2>&1 &&
	grep "^\*stopped,reason=" emacs.out >stops &&
	test $(wc -l <stops) = 3 &&
	sed -n 1p stops | grep -q "bkptno=\"1\",.*func=\"bug\"" &&
	sed -n 2p stops | grep -q "bkptno=\"2\",.*func=\"main\"" &&
	sed -n 3p stops | grep -q "bkptno=\"1\",.*func=\"bug\""
'
test_expect_success '-i without --gdb is a usage error' '
	run_tool gdbstub -i=mi "$trace" </dev/null >o 2>e
	expect_status $? 2
'
test_done
