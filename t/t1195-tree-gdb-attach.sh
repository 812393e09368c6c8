#!/bin/bash
# t1195-tree-gdb-attach.sh: gdb -p attaching to a process of the
# recorded tree that is blocked in a call (PTRACE_ATTACH, its SIGSTOP's
# siginfo, a breakpoint planted while it blocks, finish, detach) records
# and replays byte for byte, counted or not.
. "$(dirname "$0")/test-lib.sh"
command -v gdb >/dev/null 2>&1 || skip_all "no gdb"

test_expect_success 'gdb -p of a process blocked in a call, then detach' '
	mkfifo "$scratch/fifo" &&
	cat >"$scratch/attach.sh" <<-EOS &&
	cat "$scratch/fifo" & pid=\$!
	gdb -nx -p \$pid -batch -ex "p \\\$_siginfo.si_signo" -ex "p \\\$_siginfo.si_code" \\
		-ex "bt 1" -ex detach 2>&1 | grep -e "^\\\\$" -e detached
	echo hi >"$scratch/fifo"
	wait \$pid
	EOS
	rec_prog sh "$scratch/attach.sh" </dev/null &&
	check_status rec.status 0 &&
	grep -qx "\$1 = 19" rec.out &&
	grep -qx "\$2 = 128" rec.out &&
	grep -q "^\[Inferior 1 (process [0-9]*) detached\]$" rec.out &&
	grep -qx hi rec.out &&
	replay_cmp
'
# Counted: the attach gives the process its original
# code back and it is counted no more (lib/count.h, count_traced), in rec
# and in replay, so gdb sees the program's own code.
test_expect_success 'counted: gdb -p of a counted process, as natively, replays' '
	REWIND_NO_COUNT= rec_prog sh "$scratch/attach.sh" </dev/null &&
	check_status rec.status 0 &&
	grep -qx "\$1 = 19" rec.out &&
	grep -q "^\[Inferior 1 (process [0-9]*) detached\]$" rec.out &&
	grep -qx hi rec.out &&
	replay_cmp
'
test_done
