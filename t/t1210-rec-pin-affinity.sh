#!/bin/bash
# t1210-rec-pin-affinity.sh: rec and replay run the program on one CPU
# (each stop then hands the CPU over without waking another), which the
# program does not see: sched_getaffinity (nproc) shows the CPUs it would
# have had natively, until it sets an affinity of its own.
. "$(dirname "$0")/test-lib.sh"
command -v nproc >/dev/null && command -v taskset >/dev/null ||
	skip_all "no nproc or taskset"
[ "$(nproc)" -ge 2 ] || skip_all "one CPU: nothing is pinned"

test_expect_success 'the program runs on one CPU (REWIND_NO_PIN=1: on all)' '
	rec_replay_cmp sh -c "grep ^Cpus_allowed_list: /proc/self/status" &&
	all=$(grep ^Cpus_allowed_list: /proc/self/status) &&
	if [ -n "$REWIND_NO_PIN" ]; then
		test "$(cat rec.out)" = "$all"
	else
		grep -Eq "^Cpus_allowed_list:[[:space:]]+[0-9]+$" rec.out
	fi
'

test_expect_success 'nproc counts the CPUs it has natively, in rec and replay' '
	nproc >native.out &&
	rec_replay_cmp nproc &&
	test_cmp_bytes native.out rec.out
'

test_expect_success 'a mask the program sets is the one it sees, even that CPU alone' '
	cpu=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p" /proc/self/status) &&
	rec_replay_cmp taskset -c "$cpu" nproc &&
	echo 1 >one.out &&
	test_cmp_bytes one.out rec.out
'
test_done
