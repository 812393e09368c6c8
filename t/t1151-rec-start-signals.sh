#!/bin/bash
# t1151-rec-start-signals.sh: the signals rec was started with ignored
# (trap '', nohup) and its blocked mask are the program's at recording,
# and replay, replay --to and tseek give the program the recorded ones,
# whatever they were started with themselves.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigstart

# rec_under NAME [WRAP...] :: PROG ARGS: records PROG under WRAP (which
# starts rec with the signals to test) into $scratch/NAME; leaves
# rec.out, rec.err and rec.status as rec_prog does.
rec_under () {
	local name=$1 wrap=()
	shift
	while [ "$1" != "::" ]; do
		wrap+=("$1")
		shift
	done
	shift
	trace=$scratch/$name
	mkdir -p "$scratch/run.$name"
	(cd "$scratch/run.$name" && run_tool "${wrap[@]}" rec -o "$trace" -- "$@") \
		>"$scratch/rec.out" 2>"$scratch/rec.err.raw" </dev/null
	echo $? >"$scratch/rec.status"
	strip_rec_line "$scratch/rec.err.raw" >"$scratch/rec.err"
}

# replay_under [WRAP...]: replay_cmp with replay started under WRAP.
replay_under () {
	rm -rf "$scratch/elsewhere"
	mkdir -p "$scratch/elsewhere"
	(cd "$scratch/elsewhere" && run_tool "$@" replay "$trace") \
		>"$scratch/replay.out" 2>"$scratch/replay.err" </dev/null
	echo $? >"$scratch/replay.status"
	test_cmp_bytes "$scratch/rec.out" "$scratch/replay.out" &&
	test_cmp_bytes "$scratch/rec.err" "$scratch/replay.err" &&
	check_status "$scratch/replay.status" "$(cat "$scratch/rec.status")"
}

# to_last: replay --to the trace's last event ends with status 0.
to_last () {
	local last
	last=$(run_tool tdump "$trace" | tail -n 1 | cut -d" " -f1)
	run_tool replay --to "$last" "$trace" >to.out 2>to.err </dev/null ||
		{ cat to.err; return 1; }
	grep -q -- "-- stopped after event $last --" to.out
}

test_expect_success 'trap "" PIPE: yes | head under rec, then replay without it' '
	trace=$scratch/pipe &&
	(trap "" PIPE; rec_under pipe :: sh -c "yes | head -n 1; echo after") &&
	check_status rec.status 0 &&
	printf "y\nafter\n" >want && test_cmp_bytes want rec.out &&
	grep -q "Broken pipe" rec.err &&
	replay_under &&
	(trap "" PIPE; replay_under)
'
test_expect_success 'and replay --to the last event, and tseek, do not diverge' '
	to_last &&
	run_tool tseek "$trace" >/dev/null 2>tseek.err &&
	to_last
'
test_expect_success 'recorded with SIGPIPE at default, replayed under trap "" PIPE' '
	rec_under pipedfl :: sh -c "yes | head -n 1; echo after" &&
	check_status rec.status 0 &&
	(trap "" PIPE; replay_under)
'
test_expect_success 'trap "" USR1 and kill -USR1 $$: the shell lives on, in replay too' '
	trace=$scratch/usr1 &&
	(trap "" USR1; rec_under usr1 :: sh -c "kill -USR1 \$\$; echo after") &&
	check_status rec.status 0 &&
	echo after >want && test_cmp_bytes want rec.out &&
	replay_under
'
test_expect_success 'recorded killed by SIGUSR1, replayed with it ignored' '
	rec_under usr1dfl :: sh -c "kill -USR1 \$\$; echo after" &&
	check_status rec.status 138 &&
	replay_under "$T/sigstart" ignore 10 --
'
test_expect_success 'nohup: kill -HUP $$ is ignored, in replay too' '
	command -v nohup >/dev/null || return 0
	rec_under hup nohup :: sh -c "kill -HUP \$\$; echo after" &&
	check_status rec.status 0 &&
	echo after >want && test_cmp_bytes want rec.out &&
	replay_under
'
test_expect_success 'a blocked SIGUSR2 stays pending, in replay too' '
	rec_under blk "$T/sigstart" block 12 -- :: "$T/sigstart" raise 12 &&
	check_status rec.status 0 &&
	grep -q "^after 12 pending 1 token" rec.out &&
	replay_under &&
	to_last
'
test_expect_success 'recorded with SIGUSR2 unblocked, replayed with it blocked' '
	rec_under unblk :: "$T/sigstart" raise 12 &&
	check_status rec.status 140 &&
	replay_under "$T/sigstart" block 12 --
'
test_done
