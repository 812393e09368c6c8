#!/bin/bash
# t1102-tree-procs.sh: a process tree (fork+exec, vfork+exec, kill, SIGPIPE,
# SIGCHLD, wait4 and waitid) replays byte for byte with its status; tdump
# shows each child, --tid filters, replay -M names the writing process.
. "$(dirname "$0")/test-lib.sh"
require_tprog tree

# child_pid WHAT: the pid tree printed for its child WHAT ("echo", "vfork",
# "writer", "killed", "pipe writer").
child_pid () {
	sed -nE "s/^$1 child ([0-9]+): .*/\1/p" rec.out
}

# exit_text WSTATUS: how tdump shows a wait status ("status N" or
# "signal SIGNAME"), as an extended regex that also takes "status 0xHEX".
exit_text () {
	local ws=$(($1)) hex
	hex=$(printf "%x" "$ws")
	if [ $((ws & 0x7f)) = 0 ]; then
		echo "(status $((ws >> 8))|status 0x0*$hex)"
	else
		echo "(signal SIG$(kill -l $((ws & 0x7f)))|status 0x0*$hex)"
	fi
}

test_expect_success 'output differs natively' '
	differs_natively "$T/tree"
'
test_expect_success 'record and replay byte for byte, status 2' '
	RR_EXPECT=2 rec_replay_cmp "$T/tree" &&
	grep -Eq "^echo child [0-9]+$" rec.out &&
	grep -Eq "^vfork child [0-9]+$" rec.out &&
	grep -Eq "^echo child [0-9]+: status 0x0000$" rec.out &&
	grep -Eq "^vfork child [0-9]+: status 0x0000$" rec.out &&
	grep -Eq "^killed child [0-9]+: waitid code CLD_KILLED signal 15$" rec.out &&
	grep -Eq "^pipe writer child [0-9]+: status 0x000d \(SIGPIPE\)$" rec.out &&
	grep -Eq "^sigchld [1-5]$" rec.out
'
test_expect_success 'the writer child'"'"'s exit code is the one it drew' '
	c=$(sed -nE "s/^child [0-9]+ says ([0-9a-f]{8})$/\1/p" rec.out) &&
	st=$(sed -nE "s/^writer child [0-9]+: status (0x[0-9a-f]{4})$/\1/p" rec.out) &&
	test $(($st >> 8)) = $((0x$c % 50))
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_expect_success 'tdump shows a fork, clone or vfork returning each child'"'"'s pid' '
	run_tool tdump "$trace" >dump &&
	pid=$(awk "\$3 == \"start\" { print \$2; exit }" dump) &&
	(
		for w in echo vfork writer killed "pipe writer"; do
			c=$(child_pid "$w") &&
			test -n "$c" &&
			grep -Eq "^[0-9]+ $pid (syscall|sysret) (clone3?|fork|vfork)\(.*\) = $c \(new process $c\)$" dump ||
			{ echo "no fork of the $w child ($c)"; exit 1; }
		done
	)
'
test_expect_success 'the vfork child came from vfork' '
	c=$(child_pid vfork) &&
	grep -Eq "^[0-9]+ $pid (syscall|sysret) vfork\(\) = $c \(new process $c\)$" dump
'
test_expect_success 'the echo children ran /bin/echo, in their own pid' '
	(
		for w in echo vfork; do
			c=$(child_pid $w) &&
			grep -Eq "^[0-9]+ $c (syscall|sysret) execve\(\"/bin/echo\", .*\) = 0( |$)" dump ||
			{ echo "no execve of /bin/echo by the $w child ($c)"; exit 1; }
		done
	)
'
test_expect_success 'each child ends in a task-exit line with its wait status' '
	check_end () {
		grep -Eq "^[0-9]+ $1 task-exit $(exit_text $2)$" dump ||
		{ echo "child $1: no task-exit $(exit_text $2)"; grep "^[0-9]* $1 " dump | tail -n 3; return 1; }
	}
	check_end $(child_pid echo) 0 &&
	check_end $(child_pid vfork) 0 &&
	check_end $(child_pid writer) $(sed -nE "s/^writer child [0-9]+: status (0x[0-9a-f]{4})$/\1/p" rec.out) &&
	check_end $(child_pid killed) 15 &&
	check_end $(child_pid "pipe writer") 13 &&
	test $(grep -c " task-exit " dump) = 5 &&
	tail -n 1 dump | grep -Eq "^[0-9]+ $pid exit $(exit_text 0x200)$"
'
test_expect_success 'SIGCHLD, SIGTERM and SIGPIPE show in the dump' '
	grep -Eq "^[0-9]+ $pid signal SIGCHLD" dump &&
	grep -Eq "^[0-9]+ $(child_pid killed) signal SIGTERM" dump &&
	grep -Eq "^[0-9]+ $(child_pid "pipe writer") signal SIGPIPE" dump
'
test_expect_success 'tdump --tid N shows exactly the events of child N' '
	c=$(child_pid writer) &&
	run_tool tdump --tid $c "$trace" >only &&
	awk -v t=$c "\$2 == t" dump >expect &&
	test_cmp_bytes expect only &&
	grep -q " write(1, \"child $c says " only &&
	grep -q " task-exit " only
'
test_expect_success 'replay -M tags each line with the pid of the process that wrote it' '
	run_tool replay -M "$trace" >m.out 2>m.err
	expect_status $? 2 &&
	sed -E "s/^\[[0-9]+:[0-9]+\] //" m.out >plain &&
	test_cmp_bytes rec.out plain &&
	(
		while IFS= read -r l; do
			p=$(printf "%s\n" "$l" | sed -nE "s/^\[[0-9]+:([0-9]+)\] .*/\1/p")
			case $l in
			*"] echo child "*" status "*) want=$pid ;;
			*"] echo child "*) want=$(child_pid echo) ;;
			*"] vfork child "*" status "*) want=$pid ;;
			*"] vfork child "*) want=$(child_pid vfork) ;;
			*"] child "*" says "*) want=$(child_pid writer) ;;
			*) want=$pid ;;
			esac
			test -n "$p" && test "$p" = "$want" ||
			{ echo "line tagged with pid ${p:-none}, not $want: $l"; exit 1; }
		done <m.out
	)
'
# tdump shows the first 32 bytes of a buffer: the first line a write
# wrote is matched by its start, the lines after it by the event alone.
test_expect_success 'each tag names an event of that process that writes the line' '
	test $(wc -l <m.out) = 9 &&
	(
		prev=
		while IFS= read -r l; do
			ev=$(printf "%s\n" "$l" | sed -E "s/^\[([0-9]+):.*/\1/") &&
			p=$(printf "%s\n" "$l" | sed -E "s/^\[[0-9]+:([0-9]+)\].*/\1/") &&
			text=$(printf "%s\n" "$l" | sed -E "s/^\[[0-9]+:[0-9]+\] //") &&
			grep -E "^$ev $p (syscall|sysret) write\(1, \"" dump >at ||
			{ echo "event $ev is no write by $p: $l"; grep "^$ev " dump; exit 1; }
			if [ "$ev" != "$prev" ]; then
				grep -Fq "write(1, \"${text:0:24}" at ||
				{ echo "event $ev does not write: $text"; cat at; exit 1; }
			fi
			prev=$ev
		done <m.out
	)
'
test_done
