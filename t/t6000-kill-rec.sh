#!/bin/bash
# t6000-kill-rec.sh: after kill -9 of rec mid-run the trace holds what was
# flushed (rec flushes at least once a second): tdump reads it, and replay
# re-emits the flushed output, then says the trace ends early (exit 125).
# SIGTERM goes on to the program (t6021 has the rest).
. "$(dirname "$0")/test-lib.sh"
require_tprog slow

# wait_lines FILE N SECONDS: wait until FILE has N lines.
wait_lines () {
	local i=0
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -gt $(($3 * 10)) ] && return 1
		sleep 0.1
	done
}

test_expect_success 'record slow, then kill -9 rec' '
	rec -o tr "$T/slow" >rec.out 2>rec.err &
	recpid=$!
	wait_lines rec.out 5 20
	waited=$?
	sleep 2
	kill -9 $recpid
	wait $recpid
	st=$?
	slowpid=$(sed -n "s/^slow: pid //p" rec.out)
	# The program may outlive its tracer; end it (this test started it).
	if [ -n "$slowpid" ]; then kill -9 "$slowpid" 2>/dev/null; fi
	echo "rec status $st, program pid $slowpid"
	test $waited = 0 && test $st = 137
'
test_expect_success 'the trace directory exists with an events file' '
	test -s tr/events
'
test_expect_success 'tdump prints the flushed events' '
	timeout 20 tdump tr >dump 2>derr
	st=$?
	cat derr &&
	not_signalled $st &&
	grep -q "write(1, \"line 0 " dump &&
	grep -q "write(1, \"line 1 " dump
'
test_expect_success 'tdump shows no exit event' '
	! grep -Eq "^[0-9]+ [0-9]+ exit" dump
'
test_expect_success 'replay re-emits the flushed output and says the trace ends early' '
	timeout 20 replay tr >out 2>err
	st=$?
	cat err &&
	expect_status $st 125 &&
	grep -q "trace ends early" err &&
	grep -q "^line 1 " out
'
test_expect_success 'what replay re-emitted is a prefix of what rec printed' '
	n=$(wc -c <out) &&
	head -c $n rec.out >prefix &&
	test_cmp_bytes prefix out
'
test_expect_success 'replay -M agrees' '
	timeout 20 replay -M tr >mout 2>merr
	test $? = 125 &&
	sed -E "s/^\[[0-9]+:[0-9]+\] //" mout >plain &&
	test_cmp_bytes out plain
'
test_expect_success 'SIGTERM reaches the program, which ends of it: a whole trace, status 143' '
	rec -o term "$T/slow" >trec.out 2>trec.err &
	recpid=$!
	wait_lines trec.out 3 20 &&
	kill -TERM $recpid
	wait $recpid
	st=$?
	cat trec.err
	expect_status $st 143 &&
	! grep -q "ends early" trec.err &&
	timeout 20 replay term >tout 2>terr
	expect_status $? 143 &&
	! grep -q "ends early" terr &&
	test_cmp_bytes trec.out tout
'
test_done
