#!/bin/bash
# t1180-tree-ptrace-stops.sh: a tracer inside the program in the cases
# that once hung rec (ptstop's modes) sees what it sees natively, byte for
# byte, and the trace replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptstop

test_expect_success 'a group-stop reaches the tracer as natively' '
	native_cmp "$T/ptstop" groupstop &&
	grep -qx "group stop: stopped by 19 event 0" rec.out &&
	grep -qx "getsiginfo at the group stop: -1 errno 22" rec.out &&
	grep -qx "end: exited 7" rec.out
'
test_expect_success 'PTRACE_SEIZE plus INTERRUPT as natively' '
	native_cmp "$T/ptstop" interrupt &&
	grep -qx "interrupted: stopped by 5 event 128" rec.out &&
	grep -qx "end: exited 5" rec.out
'
test_expect_success 'INTERRUPT of a sleeping call, then PTRACE_SYSCALL: its restart' '
	native_cmp "$T/ptstop" intsys &&
	grep -qx "at the interrupt: orig_rax 230 rax -516" rec.out &&
	grep -qx "there: orig_rax 219 rax -38" rec.out
'
test_expect_success 'INTERRUPT of rt_sigsuspend, then a signal: as natively, and replays' '
	native_cmp "$T/ptstop" intsusp &&
	grep -qx "signal stop: stopped by 10 event 0" rec.out &&
	grep -qx "child woke" rec.out &&
	grep -qx "end: exited 3" rec.out
'
test_expect_success 'a tracer thread waits for its tracee' '
	native_cmp "$T/ptstop" thrwait &&
	grep -qx "thread.s wait: stopped by 19 event 0" rec.out
'
test_expect_success 'another thread of the tracer waits for the tracee' '
	native_cmp "$T/ptstop" grpwait &&
	grep -qx "main.s wait: stopped by 19 event 0" rec.out &&
	grep -qx "end: exited 5" rec.out
'
test_expect_success 'a tracer thread takes the stop.s SIGCHLD with sigwaitinfo' '
	native_cmp "$T/ptstop" thrchld &&
	grep -qx "thread.s sigwait: signal 17 code 4 status 19 from the child 1" rec.out
'
test_expect_success 'the stops. SIGCHLD reach a handler with their siginfo' '
	native_cmp "$T/ptstop" handler &&
	grep -qx "SIGCHLDs 1: code 5 status 0 from the child 1" rec.out &&
	grep -qx "SIGCHLDs 2: code 4 status 10 from the child 1" rec.out
'
test_expect_success 'the stop.s SIGCHLD read from a signalfd' '
	native_cmp "$T/ptstop" sigfd &&
	grep -qx "signalfd read 128: signal 17 code 4 status 19 from the child 1" rec.out
'
test_expect_success 'SA_NOCLDSTOP: no SIGCHLD for the stops' '
	native_cmp "$T/ptstop" nocldstop &&
	grep -qx "SIGCHLDs 0: code 0 status 0 from the child 0" rec.out
'
test_done
