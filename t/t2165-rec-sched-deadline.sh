#!/bin/bash
# t2165-rec-sched-deadline.sh: the kernel lets a thread be SCHED_DEADLINE
# only if it may run on every CPU of its domain; rec pins the program to
# one, and sched_setattr said EPERM where it works natively (LTP's
# sched_setattr01, sched_getattr01). rec lets that thread off the pin for
# the call, as after an affinity of its own: the same answers as
# natively (EPERM too without CAP_SYS_NICE), and the trace replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog deadline

test_expect_success 'output differs between native runs' '
	differs_natively "$T/deadline"
'
test_expect_success 'recorded and replayed' '
	rec_replay_cmp "$T/deadline"
'
test_expect_success 'the same answers as natively' '
	"$T/deadline" | head -n 2 >nat.head &&
	head -n 2 rec.out | cmp - nat.head
'
test_done
