#!/bin/bash
# t1010-tree-outside-kill.sh: kill -9 from outside while the program
# computes (no syscall, buffered calls, a second thread, a child process)
# ends the recording there; replay ends the same way with the same bytes,
# and does not run on for ever looking for the place.
. "$(dirname "$0")/test-lib.sh"
require_tprog spinkill

# killed NAME MODE [COMMAND...]: runs spinkill MODE (under COMMAND, if
# given), waits for the line with its pid, until the process that prints
# it has computed 5 ticks more (so it is in its loop, past its last
# call), then kills that process with SIGKILL. Leaves NAME.out, NAME.err
# (rec's first line removed) and NAME.status.
killed () {
	local name=$1 mode=$2 i=0 pid lead st
	shift 2
	"$@" "$T/spinkill" $mode >"$name.out" 2>"$name.err.raw" </dev/null &
	lead=$!
	while ! grep -q "^pid [0-9]* token" "$name.out"; do
		i=$((i + 1))
		if [ $i -gt $((REWIND_TIMEOUT * 10)) ]; then
			echo "no pid line after $REWIND_TIMEOUT s"
			kill -9 $lead
			return 1
		fi
		sleep 0.1
	done
	pid=$(sed -n "s/^pid \([0-9]*\) token.*/\1/p" "$name.out")
	wait_ran "$pid" 5 || { kill -9 $lead; return 1; }
	kill -9 "$pid"
	if ! timeout "$REWIND_TIMEOUT" tail --pid=$lead -f /dev/null; then
		echo "$name: still running after $REWIND_TIMEOUT s"
		kill -9 $lead
	fi
	wait $lead
	st=$?
	echo $st >"$name.status"
	strip_rec_line "$name.err.raw" >"$name.err"
	echo "$name: status $st"
	cat "$name.out" "$name.err.raw"
}

# as_rec NAME: NAME.* become the rec.* files replay_cmp compares with.
as_rec () {
	cp "$1.out" rec.out && cp "$1.err" rec.err && cp "$1.status" rec.status
}

test_expect_success 'natively the token differs run to run' '
	killed n1 0 && killed n2 0 &&
	check_status n1.status 137 &&
	! cmp -s n1.out n2.out
'
for mode in 0 1 2; do
	test_expect_success "mode $mode: killed while computing, rec ends with status 137" '
		trace=$scratch/tr.$mode &&
		killed k$mode $mode run_tool rec -o "$trace" &&
		check_status k$mode.status 137 &&
		test ! -s k$mode.err &&
		run_tool tdump "$trace" >dump &&
		tail -n 1 dump | grep -Eq "^[0-9]+ [0-9]+ exit signal SIGKILL$"
	'
	test_expect_success "mode $mode: replay writes the same bytes and ends killed too" '
		as_rec k$mode &&
		replay_cmp
	'
done
test_expect_success 'a child killed while computing: its parent sees SIGKILL' '
	trace=$scratch/tr.3 &&
	killed k3 3 run_tool rec -o "$trace" &&
	check_status k3.status 0 &&
	grep -qx "child status 0x9" k3.out
'
test_expect_success 'and replay gives the parent the same status' '
	as_rec k3 &&
	replay_cmp
'
test_done
