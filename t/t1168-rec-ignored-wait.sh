#!/bin/bash
# t1168-rec-ignored-wait.sh: the kernel discards a signal the program
# ignores, but queues it for a traced thread, where it woke
# rt_sigtimedwait and epoll_wait with EINTR under rec (LTP's
# rt_sigtimedwait01). rec blocks the ignored signals across those calls
# (ignwait.c): they time out as natively, and the trace replays. rec's
# own SIGSTOP (a timeslice's end) that races a wait's entry interrupted
# it with EINTR as well; REWIND_STOP_IN_CALL makes that race at each
# entry, and rec turns the EINTR into the restart the kernel makes for
# an undelivered stop (ERESTARTNOHAND), which replay makes too.
. "$(dirname "$0")/test-lib.sh"
require_tprog ignwait

test_expect_success 'output differs between native runs' '
	differs_natively "$T/ignwait"
'
test_expect_success 'an ignored signal interrupts neither wait; replay prints the same bytes' '
	rec_replay_cmp "$T/ignwait" &&
	grep -qx "rt_sigtimedwait: -1 EAGAIN" rec.out &&
	grep -qx "epoll_wait: 0 " rec.out
'
test_expect_success 'the same answers as natively' '
	"$T/ignwait" | head -n 2 >nat.head &&
	head -n 2 rec.out | cmp - nat.head
'
for call in rt_sigtimedwait epoll_wait; do
	test_expect_success "rec's own SIGSTOP at each $call entry: no EINTR; replay, tseek and gdb agree" '
		REWIND_STOP_IN_CALL=$call rec_replay_cmp "$T/ignwait" &&
		grep -qx "rt_sigtimedwait: -1 EAGAIN" rec.out &&
		grep -qx "epoll_wait: 0 " rec.out &&
		run_tool tdump "$trace" >dump &&
		grep -q " syscall $call(.* = ? ERESTARTNOHAND" dump &&
		run_tool replay --to $(tail -n 1 dump | cut -d" " -f1) "$trace" >/dev/null 2>&1 &&
		run_tool tseek --quiet --every 5 "$trace" &&
		replay_cmp "$trace"
	'
done
test_expect_success GDB 'gdbstub runs the last trace to its end' '
	cat >run.gdb <<-END &&
	set pagination off
	handle SIGUSR2 nostop noprint
	target remote | $REWIND_BIN/gdbstub $trace
	continue
	END
	gdb_run "$T/ignwait" run.gdb &&
	grep -q "^No more reverse-execution history" gdb.out &&
	! grep -vxF -f gdb.out rec.out
'
test_done
