#!/bin/bash
# t1012-tree-replay-noleak.sh: under the ASan build (make check's third
# pass), replay, tdump and tseek of traces with threads and processes end
# without a leak that LeakSanitizer finds.
. "$(dirname "$0")/test-lib.sh"
require_tprog threads
grep -q __asan_init "$REWIND_BIN/replay" 2>/dev/null ||
	skip_all "the tools are not built with ASan (make O=build-san SAN=1)"

# no_leak TOOL ARGS...: TOOL succeeds with LeakSanitizer on and reports
# no leak.
no_leak () {
	ASAN_OPTIONS=detect_leaks=1 run_tool "$@" >tool.out 2>tool.err
	local st=$?
	if grep -q "LeakSanitizer" tool.err; then
		head -n 30 tool.err
		return 1
	fi
	expect_status $st 0
}

test_expect_success 'record a program with threads and a shell pipeline' '
	rec_replay_cmp "$T/threads" &&
	threads=$trace &&
	rec_replay_cmp sh -c "ls / | sort | head -n 2; date +%N" &&
	pipeline=$trace
'
test_expect_success 'replay of both leaks nothing' '
	no_leak replay "$threads" &&
	no_leak replay "$pipeline" &&
	no_leak replay --to 20 "$pipeline"
'
test_expect_success 'tdump and tseek leak nothing' '
	no_leak tdump "$threads" &&
	no_leak tdump --json "$pipeline" &&
	no_leak tseek "$pipeline"
'
test_done
