#!/bin/bash
# t0002-event-numbers.sh: one numbering everywhere: every event tdump
# prints, its last line (the exit) included, is a number replay --to,
# gdbstub -g and monitor goto accept; one past it is refused by each
# with "the trace ends at event LAST". gdbstub's history ends just before
# the program exits, and a number past that end starts there, saying so.
. "$(dirname "$0")/test-lib.sh"
require_tprog linger dbg
require_gdb

# stub_at N TRACE PROG: gdbstub -g N under gdb; its own stderr lines in
# stub.msg (the program's output shown before gdb connects goes to
# stderr too), gdb's "Current event" line in stub.when.
stub_at () {
	timeout -k 5 60 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | gdbstub -g $1 $2 2>stub.err" \
		-ex "monitor when" "$3" >stub.out 2>&1
	local st=$?
	grep "^Current event: " stub.out >stub.when
	grep "^gdbstub: " stub.err >stub.msg
	return $st
}

test_expect_success 'linger prints something else each native run' '
	differs_natively "$T/linger"
'
test_expect_success 'record linger (a thread still there at exit); replay matches' '
	rec_replay_cmp "$T/linger" &&
	run_tool tdump "$trace" >dump &&
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	grep -Eq "^$last [0-9]+ exit status 0$" dump &&
	xg=$(awk "\$3 == \"syscall\" && \$4 ~ /^exit_group/ { print \$1 }" dump) &&
	test -n "$xg" && test "$xg" -lt "$last"
'
# The thread that never ran must die with main's exit_group, not make
# its first syscall (a race that diverged in 3 of 40 replays).
test_expect_success 'linger replays 20 times without a divergence' '
	for i in $(seq 20); do
		run_tool replay "$trace" >l.out 2>l.err || { cat l.err; return 1; }
		test_cmp_bytes rec.out l.out || return 1
	done
'
test_expect_success 'replay --to the last event: all output, the exit line as tdump prints it' '
	run_tool replay --to $last "$trace" >to.out 2>to.err &&
	test ! -s to.err &&
	cat rec.out >want &&
	echo "-- stopped after event $last --" >>want &&
	tail -n 1 dump >>want &&
	echo "the program has exited: no registers" >>want &&
	test_cmp_bytes want to.out
'
test_expect_success 'replay --to each of the first and last events is accepted' '
	for n in 0 1 2 $xg $((last - 1)) $last; do
		run_tool replay --to $n "$trace" >to.$n 2>to.err.$n || { echo "--to $n failed"; return 1; }
		grep -qx -- "-- stopped after event $n --" to.$n || return 1
	done
'
test_expect_success 'replay --to one past the last: refused at once, exit 2' '
	run_tool replay --to $((last + 1)) "$trace" >past.out 2>past.err
	expect_status $? 2 &&
	test ! -s past.out &&
	one_line_error past.err "^replay: --to $((last + 1)): the trace ends at event $last$"
'
test_expect_success 'gdbstub -g: history ends before the exit_group; later numbers start there' '
	stub_at $((xg - 1)) "$trace" "$T/linger" &&
	test ! -s stub.msg &&
	grep -qx "Current event: $((xg - 1))" stub.when &&
	for n in $xg $((last - 1)) $last; do
		stub_at $n "$trace" "$T/linger" || return 1
		grep -qx "Current event: $((xg - 1))" stub.when || { cat stub.out; return 1; }
		one_line_error stub.msg "^gdbstub: -g $n: history ends at event $((xg - 1)), where the program exits; starting there$" || return 1
	done
'
test_expect_success 'gdbstub -g one past the last: refused, exit 2' '
	run_tool gdbstub -g $((last + 1)) "$trace" </dev/null >g.out 2>g.err
	expect_status $? 2 &&
	one_line_error g.err "^gdbstub: -g $((last + 1)): the trace ends at event $last$"
'
test_expect_success 'monitor goto: the last event goes to the end; one past it stays' '
	timeout -k 5 60 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | gdbstub -g 5 $trace" \
		-ex "monitor goto $((last + 1))" -ex "monitor goto $last" -ex "monitor when" \
		"$T/linger" >goto.out 2>&1 &&
	grep -qx "rewind: the trace ends at event $last; still at event 5" goto.out &&
	grep -qx "rewind: history ends at event $((xg - 1)), where the program exits" goto.out &&
	test "$(grep -c "^Current event: $((xg - 1))$" goto.out)" = 2
'
# One thread: the exit_group itself is the end, with registers in both.
test_expect_success 'one thread: replay --to and gdbstub -g agree on the exit_group' '
	rec_replay_cmp "$T/dbg" &&
	run_tool tdump "$trace" >dump1 &&
	last1=$(tail -n 1 dump1 | cut -d" " -f1) &&
	grep -Eq "^$((last1 - 1)) [0-9]+ syscall exit_group\(0\) = \?$" dump1 &&
	run_tool replay --to $((last1 - 1)) "$trace" >x.out &&
	grep -q "^rip " x.out &&
	stub_at $((last1 - 1)) "$trace" "$T/dbg" &&
	test ! -s stub.msg &&
	grep -qx "Current event: $((last1 - 1))" stub.when &&
	stub_at $last1 "$trace" "$T/dbg" &&
	grep -qx "Current event: $((last1 - 1))" stub.when &&
	one_line_error stub.msg "history ends at event $((last1 - 1)),"
'
test_done
