#!/bin/bash
# t2203-count-version.sh: the trace says how rec patched code to count
# (IT_COUNT holds lib/count.h's COUNT_VERSION), and replay refuses a
# trace counted by another version by name instead of patching the
# program differently. A non-PIE executable (python3.11, mapped at
# 0x400000) is counted too: its trampolines go above it (patched at
# exec: REWIND_COUNT_EAGER=1, as it makes no thread).
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
export REWIND_NO_COUNT= XDG_CACHE_HOME=$scratch/cache
ver=$(sed -n 's/^#define COUNT_VERSION \([0-9]*\).*/\1/p' "$TEST_DIR/../lib/count.h")

# set_count DIR VALUE[,LAZY]|none: the start record's item 26 (set_start_item).
set_count () {
	set_start_item "$1" 26 "$2"
}

test_expect_success 'the start record gives the version' '
	test -n "$ver" &&
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=$ver" dump
'
test_expect_success 'the rewritten trace still replays with the version kept' '
	lazily=0 && if grep -q "^0 .* start .* lazily" dump; then lazily=1; fi &&
	cp -r "$trace" same &&
	set_count same "$ver,$lazily" &&
	replay_cmp "$scratch/same"
'
test_expect_success 'a trace counted by version 1 is refused by name' '
	cp -r "$trace" v1 &&
	set_count v1 1 &&
	run_tool replay v1 >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: the trace was counted by code patched another way \(patcher 1; this rewind.s is $ver\): record the program again$" &&
	! test -s out
'
PY=/usr/bin/python3.11
test -x $PY && readelf -hW $PY 2>/dev/null | grep -q "Type:.*EXEC" && test_set_prereq NOPIE
test_expect_success NOPIE 'a non-PIE executable is counted, and replays' '
	REWIND_COUNT_EAGER=1 REWIND_COUNT_SITES=$scratch/py.log rec_replay_cmp $PY -c "import json, re; print(sum(len(json.dumps(list(range(i)))) for i in range(300)))" &&
	grep "^map .* $PY$" py.log >m &&
	test "$(cut -d" " -f5 m)" -gt 1000
'
test_done
