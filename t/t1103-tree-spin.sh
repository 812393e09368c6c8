#!/bin/bash
# t1103-tree-spin.sh: a thread spinning on an atomic flag with no syscall
# (spin.c) must be preempted under rec for main to set the flag; the run
# finishes, replays byte for byte, and tdump shows where it was preempted.
. "$(dirname "$0")/test-lib.sh"
require_tprog spin

# spinner_tid: the tid main's clone returned (from the file dump).
spinner_tid () {
	sed -nE 's/^[0-9]+ [0-9]+ (syscall|sysret) clone3?\(.*\) = ([0-9]+) \(new thread .*\)$/\2/p' dump
}

test_expect_success 'output differs natively' '
	differs_natively "$T/spin" &&
	differs_natively "$T/spin" count
'
test_expect_success 'spin: rec finishes and replay writes the recorded bytes' '
	rec_replay_cmp "$T/spin" &&
	grep -qx "main: working" rec.out &&
	grep -Eqx "token [0-9a-f]{8}, spinner saw [0-9a-f]{8}" rec.out
'
# The spinner read the token main stored before the flag.
test_expect_success 'the spinner saw main'"'"'s token' '
	read -r tok saw < <(sed -nE "s/^token ([0-9a-f]{8}), spinner saw ([0-9a-f]{8})$/\1 \2/p" rec.out) &&
	test -n "$saw" &&
	test $(((0x$tok * 2654435761) & 0xffffffff)) = $((0x$saw))
'
test_expect_success 'tdump shows the spinner preempted, and a clone' '
	run_tool tdump "$trace" >dump &&
	tid=$(spinner_tid) &&
	test -n "$tid" &&
	grep -Eq "^[0-9]+ $tid preempt " dump
'
test_expect_success 'no syscall of the spinner between its first preempt and the flag' '
	# After it started spinning the spinner only leaves its loop when the
	# flag is set, after main wrote its line. Its first preemption in its
	# loop (in spin, mapped at 0x555555554000; a loaded machine may stop
	# it in libc before, as it starts).
	first=$(awk -v t=$tid "\$2 == t && \$3 == \"preempt\" && \$5 ~ /^0x5555555/ { print \$1; exit }" dump) &&
	w=$(grep -E "^[0-9]+ [0-9]+ (syscall|sysret) write\(1, \"main: working" dump | head -n 1 | cut -d" " -f1) &&
	test -n "$w" && test "$first" -lt "$w" &&
	! awk -v t=$tid -v a=$first -v b=$w "\$2 == t && \$1 > a && \$1 < b && \$3 != \"preempt\"" dump | grep .
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_expect_success 'spin count: rec finishes and replay writes the recorded bytes' '
	rec_replay_cmp "$T/spin" count &&
	grep -Eqx "token [0-9a-f]{8}, spinner counted: yes" rec.out
'
test_expect_success 'spin count: the spinner was preempted' '
	run_tool tdump "$trace" >dump &&
	tid=$(spinner_tid) &&
	test -n "$tid" &&
	grep -Eq "^[0-9]+ $tid preempt " dump
'
test_expect_success 'spin count: replays the same three times' '
	replay_cmp && replay_cmp
'
test_done
