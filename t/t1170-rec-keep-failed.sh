#!/bin/bash
# t1170-rec-keep-failed.sh: rec --keep-failed removes the trace of a
# program that exits 0, saying nothing more, and puts latest-trace back;
# it keeps the trace (replayable) of one that exits non-zero, is killed,
# or that rec could not record to its end; with -o DIR too.
. "$(dirname "$0")/test-lib.sh"
require_tprog forker

# traces: the trace directories under $REWIND_DIR.
traces () { ls "$REWIND_DIR" | grep -v "^latest-trace$" | sort; }

test_expect_success 'a trace recorded without the option, for latest-trace' '
	run_tool rec sh -c "echo first" >out 2>err &&
	test "$(readlink "$REWIND_DIR/latest-trace")" = sh-0 &&
	test "$(traces)" = sh-0
'
test_expect_success 'the program exits 0: no trace left, nothing more said, latest-trace as before' '
	run_tool rec --keep-failed sh -c "echo out; echo err >&2" >out 2>err &&
	test "$(traces)" = sh-0 &&
	test "$(readlink "$REWIND_DIR/latest-trace")" = sh-0 &&
	echo out >want && test_cmp_bytes want out &&
	printf "rec: recording to %s\nerr\n" "$REWIND_DIR/sh-1" >want &&
	test_cmp_bytes want err
'
test_expect_success 'the program exits 3: the trace is kept, replays, and is the latest' '
	run_tool rec --keep-failed sh -c "echo failing; exit 3" >out 2>err
	expect_status $? 3 &&
	test "$(traces)" = "$(printf "sh-0\nsh-1")" &&
	test "$(readlink "$REWIND_DIR/latest-trace")" = sh-1 &&
	run_tool replay >rout 2>rerr
	expect_status $? 3 &&
	test_cmp_bytes out rout
'
test_expect_success 'the program is killed by a signal: kept' '
	run_tool rec --keep-failed sh -c "kill -TERM \$\$" >out 2>err
	expect_status $? 143 &&
	test -d "$REWIND_DIR/sh-2" && test -s "$REWIND_DIR/sh-2/events"
'
test_expect_success 'rec cannot record the program to its end (ptrace): kept, though it exits 0 natively' '
	"$T/forker" ptrace >native.out 2>&1 &&
	run_tool rec --keep-failed -o refused "$T/forker" ptrace >out 2>err
	st=$?
	cat err
	not_signalled $st && test $st != 0 &&
	test -s refused/events
'
test_expect_success 'with -o DIR: removed when it passes, kept when it fails' '
	run_tool rec --keep-failed -o passed sh -c "exit 0" >out 2>err &&
	test ! -e passed &&
	run_tool rec --keep-failed -o failed sh -c "exit 1" >out 2>err
	expect_status $? 1 &&
	test -s failed/events &&
	test "$(readlink "$REWIND_DIR/latest-trace")" = sh-2
'
test_expect_success 'with no trace before: the link made for a passing run goes too' '
	REWIND_DIR=$scratch/fresh run_tool rec --keep-failed true >out 2>err &&
	test ! -e "$scratch/fresh/latest-trace" &&
	test ! -e "$scratch/fresh/true-0"
'
test_done
