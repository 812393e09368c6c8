#!/bin/bash
# t1181-rec-hang.sh: rec's hang detector ends a program that waits for
# what only rewind could end, in one line (REWIND_NO_HANG_CHECK=1: waits),
# and leaves alone programs that wait for time or outside input, or for
# the end of a tracee they killed. A tracee blocked in a call when its
# tracer attached stays inside, stopped for its tracer: it counts as
# stuck (REWIND_CLONE_GIVES_WAY=1 lets the child reach its sleep first;
# rec waited for its 1,000 s sleep to end).
. "$(dirname "$0")/test-lib.sh"
require_tprog pthang
require_tprog ptkillbig

test_expect_success 'natively, the second wait never ends' '
	timeout 2 "$T/pthang" >nat.out
	expect_status $? 124 &&
	grep -qx "first wait 1: 0x137f" nat.out
'
test_expect_success 'under rec: one line naming each thread, status 125, at once' '
	rec_prog "$T/pthang" &&
	check_status rec.status 125 &&
	grep -qx "first wait 1: 0x137f" rec.out &&
	tracer=$(tdump "$trace" | awk "/ ptrace\(PTRACE_ATTACH/ { print \$2; exit }") &&
	tracee=$(tdump "$trace" | sed -n "s/.*(new process \([0-9]*\)).*/\1/p" | head -n 1) &&
	test -n "$tracer" && test -n "$tracee" &&
	one_line_error rec.err "^rec: every thread of the program waits for what only rewind could end \($tracer waits in wait4 for a tracee.s stop; $tracee is stopped for its tracer $tracer\); the trace .* ends here \(REWIND_NO_HANG_CHECK=1 waits instead\)$" &&
	! grep -q "second wait ended" rec.out
'
test_expect_success 'the trace up to there replays' '
	run_tool replay "$trace" >rp.out 2>rp.err
	not_signalled $? &&
	grep -qx "first wait 1: 0x137f" rp.out
'
test_expect_success 'a tracee already asleep in a call when attached: told at once too, and replays' '
	REWIND_CLONE_GIVES_WAY=1 rec_prog "$T/pthang" &&
	check_status rec.status 125 &&
	grep -qx "first wait 1: 0x137f" rec.out &&
	grep -q "^rec: every thread of the program waits for what only rewind could end" rec.err &&
	run_tool replay "$trace" >rp2.out 2>rp2.err
	not_signalled $? &&
	grep -qx "first wait 1: 0x137f" rp2.out
'
test_expect_success 'REWIND_NO_HANG_CHECK=1: rec waits' '
	REWIND_NO_HANG_CHECK=1 timeout 3 rec -o "$scratch/nocheck" "$T/pthang" >nc.out 2>nc.err
	expect_status $? 124 &&
	! grep -q "every thread" nc.err
'
test_expect_success 'a tracer waits for a tracee asleep for a second: left alone' '
	native_cmp "$T/pthang" sleepy &&
	grep -qx "wait 1: exited 3" rec.out
'
test_expect_success 'a tracee killed while stopped, slow to end (1 GiB to free): left alone' '
	rec_replay_cmp "$T/ptkillbig" &&
	grep -qx "PTRACE_KILL: killed by 9" rec.out &&
	grep -qx "kill: killed by 9" rec.out
'
test_expect_success 'sleep 1, then a write: left alone' '
	rec_replay_cmp sh -c "sleep 1; echo woke" &&
	grep -qx woke rec.out
'
test_expect_success 'a read from a pipe written a second later: left alone' '
	{ sleep 1; echo late; } | run_tool rec -o "$scratch/piped" cat >piped.out 2>piped.err
	expect_status $? 0 &&
	grep -qx late piped.out &&
	run_tool replay "$scratch/piped" >piped.rp </dev/null &&
	test_cmp_bytes piped.out piped.rp
'
test_done
