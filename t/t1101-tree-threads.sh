#!/bin/bash
# t1101-tree-threads.sh: four pthreads racing on a counter replay byte for
# byte; tdump shows their clones, events and ends, --tid filters, and
# replay -M tags each line with its event and the process's pid.
. "$(dirname "$0")/test-lib.sh"
require_tprog threads

# Whose line is which, from a dump (file dump): the pid of the program
# (the start event's), and the threads' tids in creation order (the
# results of main's clone calls).
main_pid () {
	awk '$3 == "start" { print $2; exit }' dump
}
clone_tids () {
	sed -nE 's/^[0-9]+ [0-9]+ (syscall|sysret) (clone3?|fork|vfork)\(.*\) = ([0-9]+) \(new .*\)$/\3/p' dump
}

test_expect_success 'output differs natively' '
	differs_natively "$T/threads"
'
# Under load runs differ less often: up to 50 runs, until two differ.
test_expect_success 'the finishing order and counter differ natively' '
	: >sched &&
	for i in $(seq 50); do
		"$T/threads" | grep -E "^(order|counter) " | tr "\n" " " >>sched
		echo >>sched
		test $(sort -u sched | wc -l) -gt 1 && break
	done
	sort -u sched &&
	test $(sort -u sched | wc -l) -gt 1
'
test_expect_success 'record and replay byte for byte' '
	rec_replay_cmp "$T/threads" &&
	test $(grep -c "^thread [0-3] token [0-9a-f]\{8\}$" rec.out) = 4 &&
	grep -Eq "^order( [0-3]){4}$" rec.out &&
	grep -Eq "^counter [0-9]+ of 200$" rec.out
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_expect_success 'tdump shows four clones returning new tids' '
	run_tool tdump "$trace" >dump &&
	pid=$(main_pid) &&
	clone_tids >tids &&
	cat tids &&
	test $(wc -l <tids) = 4 &&
	test $(sort -u tids | wc -l) = 4 &&
	! grep -qx "$pid" tids &&
	test $(grep -c " (new thread of process $pid)\( (its code patched for counting now)\)\?\$" dump) = 4
'
test_expect_success 'each thread ends in a task-exit line with status 0, main in exit' '
	awk "\$3 == \"task-exit\" { print \$2 }" dump | sort >ended &&
	sort tids >want &&
	test_cmp_bytes want ended &&
	! grep " task-exit " dump | grep -Ev " task-exit status (0|0x0+)$" &&
	tail -n 1 dump | grep -Eq "^[0-9]+ $pid exit status (0|0x0+)$"
'
test_expect_success 'each thread wrote its own line' '
	test $(wc -l <tids) = 4 &&
	(
		k=0
		while read -r tid; do
			grep -E "^[0-9]+ $tid (syscall|sysret) write\(1, \"thread $k token " dump || {
				echo "thread $k ($tid) has no write of its line"; exit 1; }
			k=$((k + 1))
		done <tids
	)
'
test_expect_success 'tdump --tid N shows exactly thread N'"'"'s events' '
	(
		tid=$(sed -n 2p tids)
		test -n "$tid" && test -n "$pid" || exit 1
		for tid in $tid $pid; do
			run_tool tdump --tid $tid "$trace" >only &&
			awk -v t=$tid "\$2 == t" dump >expect &&
			test -s only &&
			test_cmp_bytes expect only || exit 1
		done
	)
'
test_expect_success 'tdump --tid of a thread not in the trace: one line, status 1' '
	run_tool tdump --tid 1 "$trace" >none 2>err
	expect_status $? 1 &&
	test ! -s none &&
	one_line_error err "^tdump: .*/events: no event of thread 1$"
'
test_expect_success 'tdump --json --tid N of a thread names the program'"'"'s process' '
	tid=$(sed -n 2p tids) &&
	run_tool tdump --json --tid $tid "$trace" >only.json &&
	test -s only.json &&
	! grep -v "\"tid\":$tid,.*\"pid\":$pid," only.json
'
test_expect_success 'replay -M tags every line with [EVENT:PID], PID the program'"'"'s' '
	run_tool replay -M "$trace" >m.out 2>m.err &&
	test $(wc -l <m.out) = 6 &&
	! grep -vE "^\[[0-9]+:$pid\] " m.out &&
	sed -E "s/^\[[0-9]+:[0-9]+\] //" m.out >plain &&
	test_cmp_bytes rec.out plain
'
# tdump shows the first 32 bytes of a buffer: the first line a write
# wrote is matched by its start, the lines after it by the event alone.
test_expect_success 'each tag names the write of that line, by the thread that wrote it' '
	test $(wc -l <m.out) = 6 &&
	(
		prev=
		while IFS= read -r l; do
			ev=$(printf "%s\n" "$l" | sed -E "s/^\[([0-9]+):.*/\1/") &&
			text=$(printf "%s\n" "$l" | sed -E "s/^\[[0-9]+:[0-9]+\] //") &&
			grep -E "^$ev [0-9]+ (syscall|sysret) write\(1, \"" dump >at ||
			{ echo "event $ev is no write: $l"; grep "^$ev " dump; exit 1; }
			if [ "$ev" != "$prev" ]; then
				grep -Fq "write(1, \"${text:0:24}" at ||
				{ echo "event $ev does not write: $text"; cat at; exit 1; }
			fi
			prev=$ev
			case $text in
			"thread "*)
				k=$(echo "$text" | cut -d" " -f2) &&
				tid=$(sed -n "$((k + 1))p" tids) &&
				grep -q "^$ev $tid " at || { echo "event $ev is not thread $k ($tid)"; exit 1; } ;;
			*)
				grep -q "^$ev $pid " at || { echo "event $ev is not main ($pid)"; exit 1; } ;;
			esac
		done <m.out
	)
'
test_expect_success 'replay --to an event of main while threads live, and to a thread'"'"'s exit' '
	ev=$(awk -v p=$pid "\$2 == p && \$3 == \"syscall\" { e = \$1 } END { print e }" dump) &&
	tid=$(sed -n 2p tids) &&
	live=$(awk -v p=$pid -v t=$tid "\$2 == p && \$3 == \"syscall\" && \$1 > c && !e { print \$1; e = 1 } \$2 == t && c == \"\" { c = \$1 }" dump) &&
	test -n "$live" &&
	run_tool replay --to $live "$trace" >to.out 2>to.err &&
	grep -qx -- "-- stopped after event $live --" to.out &&
	grep -Eq "^rip +0x" to.out &&
	gone=$(awk -v t=$tid "\$2 == t && \$3 == \"task-exit\" { print \$1 }" dump) &&
	test -n "$gone" &&
	run_tool replay --to $gone "$trace" >to.out 2>to.err &&
	grep -qx "thread $tid has ended: no registers" to.out
'
test_expect_success 'replay --stack names each event as tdump does, a call whose end came later as its sysret' '
	grep -q " sysret " dump &&
	run_tool replay --stack "$trace" >stack.out 2>stack.err &&
	grep "^[0-9]" stack.out >stack.events &&
	awk "\$3 != \"start\" && \$3 != \"exit\"" dump >dump.events &&
	test_cmp_bytes dump.events stack.events
'
test_done
