#!/bin/bash
# t4014-trace-cpu-missing.sh: a trace without its cpu file is refused by
# every tool that replays it (replay, tseek, gdbstub), with one line
# naming TRACE/cpu and exit 125, unless --force, which replays it with
# one warning; tdump, which replays nothing, reads it.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record, and lose the cpu file' '
	rec_replay_cmp "$T/lines" 3 &&
	cp -a "$trace" nocpu && rm nocpu/cpu
'
# refused TOOL: TOOL on nocpu fails with 125 and one line.
refused () {
	run_tool "$1" nocpu >out 2>err </dev/null
	st=$?
	cat err
	expect_status $st 125 &&
	one_line_error err "^$1: nocpu/cpu: missing: nothing to check this CPU against \(run tpack on the recording machine to add it, or use --force to try anyway\)$"
}
test_expect_success 'replay refuses it' 'refused replay && test ! -s out'
test_expect_success 'tseek refuses it, leaving no index' '
	refused tseek && test ! -e nocpu/seek && test ! -e nocpu/seek.new
'
test_expect_success 'gdbstub refuses it before talking' '
	[ -x "$REWIND_BIN/gdbstub" ] || { echo "no gdbstub"; return 1; }
	refused gdbstub && test ! -s out
'
warned () {
	grep -q "^$1: nocpu/cpu: missing: this CPU is unchecked; replaying anyway (--force)$" err
}
test_expect_success 'replay --force replays it, with one warning' '
	run_tool replay --force nocpu >out 2>err </dev/null &&
	test_cmp_bytes rec.out out &&
	test "$(grep -c "cpu: missing" err)" = 1 &&
	warned replay
'
test_expect_success 'tseek --force indexes it, with one warning' '
	run_tool tseek --force nocpu >out 2>err </dev/null &&
	test -e nocpu/seek &&
	warned tseek
'
test_expect_success 'tdump reads it' '
	run_tool tdump nocpu >out 2>err &&
	test ! -s err &&
	grep -q " exit" out
'
test_done
