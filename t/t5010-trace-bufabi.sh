#!/bin/bash
# t5010-trace-bufabi.sh: the start record names the syscall buffer's ABI
# revision that recorded the trace (IT_BUFABI); replay, gdbstub and tseek
# refuse a trace of another revision, or one that names none (an older
# rewind), with one line naming both revisions and status 125, never a
# divergence; revision 1 replays still. tdump still shows such a trace.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"

# set_bufabi DIR VALUE|none: the start record's item 14 (set_start_item).
set_bufabi () {
	set_start_item "$1" 14 "$2"
}

test_expect_success 'record; replay matches' '
	rec_replay_cmp "$T/lines" 3
'
test_expect_success 'tdump shows the revision at the start' '
	run_tool tdump "$trace" >dump &&
	head -n 1 dump >start &&
	grep -Eq "^0 [0-9]+ start .*buf-abi=[1-9][0-9]*( |$)" start &&
	rev=$(sed -nE "s/.* buf-abi=([0-9]+).*/\1/p" start) &&
	echo "$rev" >rev &&
	run_tool tdump --json "$trace" | head -n 1 | grep -q "\"buf_abi\":$rev[,}]"
'
rev=$(cat rev 2>/dev/null)
test_expect_success 'the rewritten trace still replays when the revision is kept' '
	cp -r "$trace" same &&
	set_bufabi same "$rev" &&
	replay_cmp "$scratch/same"
'
test_expect_success 'a newer revision: replay refuses it in one line naming both' '
	cp -r "$trace" newer &&
	set_bufabi newer $((rev + 1)) &&
	run_tool replay newer >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*newer/events: recorded by a newer rewind \(syscall buffer ABI revision $((rev + 1))\), this one has revision $rev: record the program again$" &&
	! test -s out
'
test_expect_success 'no revision (an older rewind): refused, revision 0' '
	cp -r "$trace" older &&
	set_bufabi older none &&
	run_tool replay older >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*older/events: recorded by an older rewind \(syscall buffer ABI revision 0\), this one has revision $rev: " &&
	! test -s out
'
test_expect_success 'tdump still shows them' '
	run_tool tdump newer >dump.newer &&
	head -n 1 dump.newer | grep -q " buf-abi=$((rev + 1))" &&
	run_tool tdump older >dump.older &&
	! head -n 1 dump.older | grep -q "buf-abi=" &&
	tail -n +2 dump.older >a &&
	tail -n +2 dump >b &&
	test_cmp_bytes b a
'
test_expect_success 'gdbstub refuses it the same way' '
	run_tool gdbstub older </dev/null >out 2>err
	expect_status $? 125 &&
	one_line_error err "^gdbstub: .*older/events: recorded by an older rewind \(syscall buffer ABI revision 0\), this one has revision $rev: "
'
test_expect_success 'and tseek' '
	run_tool tseek newer >out 2>err
	expect_status $? 125 &&
	one_line_error err "^tseek: .*newer/events: recorded by a newer rewind \(syscall buffer ABI revision $((rev + 1))\), this one has revision $rev: "
'
test_expect_success 'revision 1 (before the redirect table, which its library left empty) still replays' '
	REWIND_NO_REDIRECT=1 rec_prog "$T/lines" 3 &&
	check_status rec.status 0 &&
	cp -r "$trace" one &&
	set_bufabi one 1 &&
	replay_cmp "$scratch/one"
'
test_done
