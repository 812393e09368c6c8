#!/bin/bash
# t1192-tree-ptrace-listen.sh: PTRACE_LISTEN of a seized tracee in its
# group-stop: it traps again at the SIGCONT (at once when one came
# before), as natively; then `strace -f`, which listens at its first stop,
# records and replays byte for byte, and so does its fault injection.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptlisten
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE

test_expect_success 'a SIGCONT before the listen: it traps again at once' '
	native_cmp "$T/ptlisten" before &&
	grep -qx "listen: 0" rec.out &&
	grep -qx "after the SIGCONT: stopped by 5 event 128" rec.out &&
	grep -qx "let go: stopped by 18 event 0" rec.out &&
	grep -qx "end: exited 3" rec.out
'
test_expect_success 'listening: not stopped for ptrace, and it traps at the SIGCONT' '
	native_cmp "$T/ptlisten" after &&
	grep -qx "getregs while listening: -1 No such process" rec.out &&
	grep -qx "cont while listening: -1 No such process" rec.out &&
	grep -qx "after the SIGCONT: siginfo 0: signal 5 code 0x8005" rec.out
'
test_expect_success 'PTRACE_INTERRUPT of a listener: its group-stop again' '
	native_cmp "$T/ptlisten" interrupt &&
	grep -qx "interrupted: stopped by 19 event 128" rec.out &&
	grep -qx "after the SIGCONT: stopped by 5 event 128" rec.out
'
test_expect_success STRACE 'strace -f sh -c "echo hi" records and replays byte for byte' '
	rec_prog strace -f sh -c "echo hi" &&
	check_status rec.status 0 &&
	printf "hi\n" >expect &&
	test_cmp_bytes expect rec.out &&
	grep -q "^execve(\"/usr/bin/sh\", \[\"sh\", \"-c\", \"echo hi\"\]" rec.err &&
	grep -q "^write(1, \"hi\\\\n\", 3) *= 3$" rec.err &&
	grep -qx "+++ exited with 0 +++" rec.err &&
	! grep -q SIGCONT rec.err &&
	replay_cmp
'
test_expect_success STRACE 'strace -f follows a forked child, and replays' '
	rec_prog strace -f sh -c "/bin/echo hi; exit 3" &&
	check_status rec.status 3 &&
	grep -q "^\[pid *[0-9]*\] execve(\"/bin/echo\"" rec.err &&
	grep -q "^\[pid *[0-9]*\] +++ exited with 0 +++$" rec.err &&
	grep -qx "+++ exited with 3 +++" rec.err &&
	replay_cmp
'
test_expect_success STRACE 'strace fault injection: an error for a call, skipped at its entry' '
	rec_prog strace -e inject=write:error=ENOSPC:when=1 -- /bin/echo hi &&
	check_status rec.status 1 &&
	grep -q "^write(1, \"hi\\\\n\", 3) *= -1 ENOSPC (No space left on device) (INJECTED)$" rec.err &&
	replay_cmp
'
test_expect_success STRACE 'strace fault injection: a result given at the exit' '
	rec_prog strace -f -e inject=getppid:retval=42 sh -c "echo \$PPID" &&
	check_status rec.status 0 &&
	printf "42\n" >expect &&
	test_cmp_bytes expect rec.out &&
	grep -q "^getppid() *= 42 (INJECTED)$" rec.err &&
	replay_cmp
'
test_done
