#!/bin/bash
# t6012-kernel-calls.sh: calls rec refused before, whose outputs depend
# on a command or a length, record and replay: semctl (GETALL, IPC_STAT,
# SEM_INFO), msgrcv, msgctl, shmctl, mincore, get_mempolicy,
# sched_getattr, sysfs, keyctl, quotactl, modify_ldt, sendmmsg, recvmmsg,
# a software perf counter read through its fd, name_to_handle_at,
# vmsplice; bpf gets ENOSYS.
. "$(dirname "$0")/test-lib.sh"
require_tprog kcalls

test_expect_success 'the calls record and replay' '
	rec_replay_cmp "$T/kcalls"
'
test_expect_success 'native output differs (values set at random)' '
	differs_natively "$T/kcalls"
'
test_expect_success 'they gave what the kernel gives' '
	grep -q "^GETALL = 0" rec.out &&
	grep -q "^nsems 3 " rec.out &&
	grep -q "^msgrcv = [1-9]" rec.out &&
	grep -q "^recvmmsg = 2" rec.out &&
	grep -q "^in: 1 0 1 0" rec.out &&
	grep -q "^first fs [a-z]" rec.out &&
	grep -q "^bpf = -1 errno 38" rec.out &&
	grep -q "^vmspliced .spliced [0-9]" rec.out &&
	grep -Eq "^(perf task-clock: read 8, id set, ns [0-9]+|perf_event_open errno)" rec.out
'
test_done
