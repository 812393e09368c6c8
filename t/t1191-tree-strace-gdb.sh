#!/bin/bash
# t1191-tree-strace-gdb.sh: strace -f and gdb -batch -ex run recorded by
# rec: strace gets through its probe and its first stops, then both stop
# at what rewind cannot yet show as the kernel would, in one line, at once.
. "$(dirname "$0")/test-lib.sh"
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
command -v gdb >/dev/null 2>&1 && test_set_prereq GDB

test_expect_success STRACE 'strace -f: past its probe and the child.s seize, PTRACE_LISTEN refused' '
	rec_prog strace -f sh -c "echo hi" &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program made syscall ptrace \(101\) with PTRACE_LISTEN: the SIGCONT that ends the group-stop would reach the tracer after the tracee.s next syscall, not at once, which rewind cannot record yet; the trace .* ends before it$" &&
	{ run_tool tdump "$trace" >dump 2>/dev/null || :; } &&
	grep -q "ptrace(PTRACE_GET_SYSCALL_INFO, [0-9]*, 0x58, 0x[0-9a-f]*) = 33" dump &&
	grep -q "ptrace(PTRACE_SEIZE, [0-9]*, NULL, 0x5f) = 0" dump &&
	grep -q "WSTOPSIG(s) == SIGSTOP} | 128 << 16" dump
'
test_expect_success STRACE 'the trace up to the refusal replays' '
	run_tool replay "$trace" >/dev/null 2>rp.err
	not_signalled $?
'
test_expect_success GDB 'gdb -batch -ex run: its breakpoint write through /proc/PID/mem refused' '
	rec_prog gdb -nx -batch -ex run --args /bin/echo hi &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program wrote through /proc/[0-9]*/mem into memory that is not its own .*; the trace .* ends before it$"
'
test_done
