#!/bin/bash
# t6021-rec-term-passed.sh: SIGTERM or SIGHUP sent to rec (kill, a
# shell's hang-up, timeout(1)) goes on to the program's group, as it
# would reach the program without rec; the program's handler runs and
# the trace is whole. A program that ignores it is ended after rec's
# grace of 5 s, the trace ending early.
. "$(dirname "$0")/test-lib.sh"

# A shell that says when its handler is set, then waits; the handler
# prints what differs from run to run and exits 3.
cat >catch.sh <<'SH'
trap 'echo "got $1 $(date +%N)"; exit 3' $1
echo ready
while :; do sleep 0.05; done
SH

for sig in TERM HUP; do
	test_expect_success "SIG$sig to rec runs the program's handler; the trace is whole" '
		rec -o tr.$sig sh catch.sh $sig >out.$sig 2>err.$sig &
		recpid=$!
		wait_for out.$sig ready &&
		kill -$sig $recpid
		wait $recpid
		st=$?
		cat err.$sig
		expect_status $st 3 &&
		grep -q "^got $sig [0-9]" out.$sig &&
		! grep -q "ends early" err.$sig
	'
	test_expect_success "its replay prints the same bytes and ends the same way" '
		(mkdir -p el && cd el && run_tool replay ../tr.$sig) >rout.$sig 2>/dev/null
		expect_status $? 3 &&
		test_cmp_bytes out.$sig rout.$sig
	'
done

test_expect_success 'two at once (as timeout(1) sends them) are one: the trace is whole' '
	rec -o tr.two sh catch.sh TERM >out.two 2>err.two &
	recpid=$!
	wait_for out.two ready &&
	kill -TERM $recpid && kill -TERM $recpid
	wait $recpid
	st=$?
	cat err.two
	expect_status $st 3 &&
	! grep -q "ends early" err.two &&
	(mkdir -p el && cd el && run_tool replay ../tr.two) >rout.two 2>/dev/null
	expect_status $? 3 &&
	test_cmp_bytes out.two rout.two
'

test_expect_success 'a program that ignores SIGTERM is ended after the grace, the trace early' '
	cat >ign.sh <<-\SH
	trap "" TERM
	echo ready $(date +%N)
	while :; do sleep 0.05; done
	SH
	rec -o tr.ign sh ign.sh >out.ign 2>err.ign &
	recpid=$!
	wait_for out.ign ready &&
	kill -TERM $recpid
	wait $recpid
	st=$?
	cat err.ign
	expect_status $st 143 &&
	grep -q "^rec: killed by signal 15; the trace tr.ign ends early" err.ign &&
	(mkdir -p el && cd el && run_tool replay ../tr.ign) >rout.ign 2>rerr.ign
	st=$?
	cat rerr.ign
	expect_status $st 125 &&
	grep -q "ends early" rerr.ign &&
	test_cmp_bytes out.ign rout.ign
'
test_done
