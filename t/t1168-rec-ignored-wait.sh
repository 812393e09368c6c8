#!/bin/bash
# t1168-rec-ignored-wait.sh: the kernel discards a signal the program
# ignores, but queues it for a traced thread, where it woke
# rt_sigtimedwait and epoll_wait with EINTR under rec (LTP's
# rt_sigtimedwait01). rec blocks the ignored signals across those calls
# (ignwait.c): they time out as natively, and the trace replays.
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
test_done
