#!/bin/bash
# t1104-tree-async-signal.sh: kill -USR1 from outside, or SIGINT to the
# group as a terminal sends it, while the program computes without syscalls
# is recorded where it arrived and replayed there (turn count included),
# counted or not.
. "$(dirname "$0")/test-lib.sh"
require_tprog compute-sig
command -v setsid >/dev/null 2>&1 || skip_all 'no setsid'

# signalled NAME SIG TARGET [rec -o DIR]: runs compute-sig (under the
# command given, if any) in its own session, waits for its pid file and
# for it to compute (5 ticks of CPU time), then sends SIG to the program (TARGET prog) or to
# its whole process group (TARGET group, as a terminal's ^C does). Leaves
# NAME.out, NAME.err (rec's first line removed) and NAME.status.
signalled () {
	local name=$1 sig=$2 target=$3 i=0 pid pgid lead st
	shift 3
	rm -f "$scratch/$name.pid"
	setsid "$@" "$T/compute-sig" "$scratch/$name.pid" \
		>"$name.out" 2>"$name.err.raw" </dev/null &
	lead=$!
	while [ ! -s "$scratch/$name.pid" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "no pid file after 20 s"
			kill -9 $lead
			return 1
		fi
		sleep 0.1
	done
	pid=$(cat "$scratch/$name.pid")
	# In its loop, past the rename (a signal there would come at a
	# syscall, not where it computes), however loaded the machine.
	wait_ran "$pid" 5 || { kill -9 $lead; return 1; }
	if [ $target = group ]; then
		# setsid made the first process (the program, or rec, which
		# passes the signal on to the program's own group) the
		# leader of a new group: never signal the group this test
		# runs in.
		pgid=$(cut -d" " -f5 "/proc/$lead/stat")
		if [ "$pgid" != "$lead" ] || [ "$pgid" = "$(cut -d" " -f5 /proc/$$/stat)" ]; then
			echo "process group $pgid is not the session's ($lead)"
			kill -9 $lead
			return 1
		fi
		kill -s "$sig" -- "-$pgid"
	else
		kill -s "$sig" "$pid"
	fi
	if ! timeout "$REWIND_TIMEOUT" tail --pid=$lead -f /dev/null; then
		echo "$name: still running after $REWIND_TIMEOUT s"
		kill -TERM $lead
		sleep 1
		kill -9 $lead 2>/dev/null
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

test_expect_success 'natively the signal ends the loop, and output differs' '
	signalled n1 USR1 prog &&
	signalled n2 USR1 prog &&
	check_status n1.status 0 &&
	grep -Eq "^SIGUSR1 after [0-9]+ turns \(mod 1000003\), signals 1, token [0-9a-f]{8}$" n1.out &&
	! cmp -s n1.out n2.out
'
test_expect_success 'kill -USR1 from outside while computing: rec finishes' '
	trace=$scratch/tr.usr1 &&
	signalled usr1 USR1 prog rec -o "$trace" &&
	check_status usr1.status 0 &&
	grep -Eq "^SIGUSR1 after [0-9]+ turns \(mod 1000003\), signals 1, token [0-9a-f]{8}$" usr1.out
'
test_expect_success 'and replay writes the recorded bytes, turn count included' '
	as_rec usr1 &&
	replay_cmp
'
test_expect_success 'tdump shows SIGUSR1 delivered where the program was preempted' '
	run_tool tdump "$trace" >dump &&
	grep -B1 -E "^[0-9]+ [0-9]+ signal SIGUSR1" dump >at &&
	cat at &&
	head -n 1 at | grep -Eq "^[0-9]+ [0-9]+ preempt "
'
test_expect_success 'SIGINT to the foreground group: rec ignores it, the program gets it' '
	trace=$scratch/tr.int &&
	signalled int INT group rec -o "$trace" &&
	check_status int.status 0 &&
	grep -Eq "^SIGINT after [0-9]+ turns \(mod 1000003\), signals 1, token [0-9a-f]{8}$" int.out
'
test_expect_success 'and replay writes the recorded bytes' '
	as_rec int &&
	replay_cmp &&
	run_tool tdump "$trace" >dump &&
	grep -B1 -E "^[0-9]+ [0-9]+ signal SIGINT" dump | head -n 1 | grep -Eq "^[0-9]+ [0-9]+ preempt "
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
# Counted: compute-sig's loop ends in a 2-byte branch
# just after another branch. Patcher 3 left that edge out, and rec took
# a point in the loop that replay could not find again; now rec runs the
# thread on to its next counted edge (a point there) or, where none
# comes, records the state whole.
test_expect_success 'counted: kill -USR1 while computing: replay matches' '
	trace=$scratch/tr.cusr1 &&
	signalled cusr1 USR1 prog rec -o "$trace" &&
	check_status cusr1.status 0 &&
	as_rec cusr1 &&
	replay_cmp
'
test_done
