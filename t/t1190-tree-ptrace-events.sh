#!/bin/bash
# t1190-tree-ptrace-events.sh: a tracer inside the program with the event
# options (exec, exit, fork, vfork, clone, vfork-done, seize) and
# PTRACE_GET_SYSCALL_INFO sees what it sees natively, and the trace replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptevent

test_expect_success 'PTRACE_GET_SYSCALL_INFO at syscall stops (TRACESYSGOOD): strace.s probe' '
	native_cmp "$T/ptevent" info &&
	grep -q "info 80: op 1 arch 0xc000003e ip 1 sp 1 entry nr 80 arg0 the string" rec.out &&
	grep -q "info 33: op 2 arch 0xc000003e ip 1 sp 1 exit rval -ENOENT is_error 1" rec.out &&
	grep -q "exit rval child is_error 0" rec.out
'
test_expect_success 'PTRACE_GET_SYSCALL_INFO without TRACESYSGOOD: none' '
	native_cmp "$T/ptevent" infonone &&
	grep -q "stopped by 0x5 event 0 msg 2" rec.out &&
	! grep -q "info 80" rec.out
'
test_expect_success 'PTRACE_O_TRACEEXEC: the exec event stop' '
	native_cmp "$T/ptevent" exec &&
	grep -q "stopped by 0x5 event 4 msg child, siginfo 0 signo 5 code 0x405" rec.out
'
test_expect_success 'without TRACEEXEC: the SIGTRAP after execve' '
	native_cmp "$T/ptevent" execold &&
	grep -q "stopped by 0x5 event 0 msg 0, siginfo 0 signo 5 code 0x0" rec.out
'
test_expect_success 'TRACEEXEC with PTRACE_SYSCALL: entry, event, exit' '
	native_cmp "$T/ptevent" execsys &&
	test $(grep -c "orig_rax 59" rec.out) = 3
'
test_expect_success 'without TRACEEXEC, PTRACE_SYSCALL: entry, exit, SIGTRAP' '
	native_cmp "$T/ptevent" execoldsys
'
test_expect_success 'PTRACE_O_TRACEEXIT: the stop before the end, its status as the message' '
	native_cmp "$T/ptevent" exit &&
	grep -q "stopped by 0x5 event 6 msg other, siginfo 0 signo 5 code 0x605" rec.out &&
	grep -qx "  message 0x700" rec.out &&
	grep -qx "stop: child exited 7" rec.out
'
test_expect_success 'TRACEEXIT with PTRACE_SYSCALL: the entry stop, then the exit event' '
	native_cmp "$T/ptevent" exitsys &&
	grep -qx "  message 0x1" rec.out &&
	grep -qx "  message 0x700" rec.out
'
test_expect_success 'TRACEFORK, TRACEVFORK, TRACECLONE, TRACEVFORKDONE: events and new tracees' '
	native_cmp "$T/ptevent" fork &&
	grep -q "event: child stopped by 0x5 event 1" rec.out &&
	grep -q "new one: new stopped by 0x13 event 0 msg 0, siginfo 0 signo 19 code 0x0 pid 0" rec.out &&
	grep -q "vfork done: child stopped by 0x5 event 5 msg new" rec.out &&
	grep -q "event: child stopped by 0x5 event 3" rec.out &&
	grep -qx "end: child exited 3" rec.out
'
test_expect_success 'PTRACE_SEIZE with them: the new ones stop at PTRACE_EVENT_STOP' '
	native_cmp "$T/ptevent" seize &&
	test $(grep -c "new one: new stopped by 0x5 event 128 msg 0" rec.out) = 3
'
test_expect_success 'PTRACE_SEIZE of a child in a group-stop: its PTRACE_EVENT_STOP at once' '
	native_cmp "$T/ptevent" seizestopped &&
	grep -qx "trapped: child stopped by 0x13 event 128 msg 0, siginfo 0 signo 19 code 0x8013 pid child, orig_rax 234 rax 0" rec.out &&
	grep -qx "end: child exited 4" rec.out
'
test_expect_success 'PTRACE_ATTACH of a child in a group-stop: stopped at once' '
	native_cmp "$T/ptevent" attachstopped &&
	grep -q "trapped: child stopped by 0x13 event 0 msg 0, siginfo -1" rec.out
'
test_done
