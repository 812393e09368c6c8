#!/bin/bash
# t7005-tpack-bad.sh: tpack on a missing or damaged trace, or with bad
# arguments, fails with one line and a non-zero status, changing nothing.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

# fails_clean TRACE STATUS PATTERN: tpack TRACE exits STATUS with one
# line on stderr matching PATTERN, prints nothing and adds nothing.
fails_clean () {
	local before=
	[ -d "$1/files" ] && before=$(ls -ai "$1/files")
	run_tool tpack "$1" >out 2>err
	local st=$?
	expect_status $st "$2" &&
	one_line_error err "$3" &&
	test ! -s out &&
	{ [ ! -d "$1/files" ] || [ "$(ls -ai "$1/files")" = "$before" ]; }
}

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 3
'
test_expect_success 'tpack of a directory that does not exist' '
	fails_clean no-such-dir 125 "^tpack: no-such-dir: No such file or directory$"
'
test_expect_success 'tpack of a plain file' '
	echo hi >plain &&
	fails_clean plain 125 "^tpack: plain: not a trace directory$"
'
test_expect_success 'tpack with no latest-trace' '
	run_tool tpack >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^tpack: no trace named and none recorded in $REWIND_DIR \(it has no latest-trace\): record one with rec, or name a trace directory$"
'
test_expect_success 'tpack of a trace without events' '
	cp -a "$trace" noev && rm noev/events &&
	fails_clean noev 125 "^tpack: noev/events: No such file or directory$"
'
test_expect_success 'tpack of a trace with damaged events' '
	cp -a "$trace" bad && flip_byte bad/events 20 &&
	fails_clean bad 125 "^tpack: bad/events: .*offset" &&
	cp -a "$trace" bad2 && flip_byte bad2/events $(($(stat -c %s bad2/events) - 2)) &&
	fails_clean bad2 125 "^tpack: bad2/events: corrupt chunk at offset"
'
test_expect_success 'tpack of a trace with a damaged cpu file' '
	cp -a "$trace" badcpu && flip_byte badcpu/cpu 3 &&
	fails_clean badcpu 125 "^tpack: badcpu/cpu: not a rewind cpu file \(bad magic\)$" &&
	put_u32 badcpu/cpu 0 0x444e5752 &&
	flip_byte badcpu/cpu 30 &&
	fails_clean badcpu 125 "^tpack: badcpu/cpu: corrupt: the checksum at offset [0-9]+ does not match the bytes before it$" &&
	flip_byte badcpu/cpu 30 &&
	{ ! test_have_prereq PYTHON || {
		put_u32 badcpu/cpu 8 7 && cpu_resum badcpu/cpu &&
		fails_clean badcpu 125 "^tpack: badcpu/cpu: cpu file version 7 is newer than this tool.s version 3$"
	}; }
'
test_expect_success 'tpack of a trace whose events file is empty of records' '
	cp -a "$trace" empty && head -c 16 "$trace/events" >empty/events &&
	fails_clean empty 125 "^tpack: empty/events: trace ends early: it holds no events"
'
test_expect_success 'usage errors exit 2' '
	run_tool tpack --bogus >out 2>err
	st=$? &&
	expect_status $st 2 &&
	grep -q "^usage: tpack" err &&
	run_tool tpack a b >out 2>err
	st=$? &&
	expect_status $st 2 &&
	run_tool tpack --help >out 2>err &&
	grep -q "^usage: tpack \[-n\] \[-q\] \[TRACE\]$" out
'
test_done
