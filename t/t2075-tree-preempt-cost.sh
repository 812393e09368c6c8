#!/bin/bash
# t2075-tree-preempt-cost.sh: every preemption record of a process, its
# first included, holds what changed since its last one, and reads what
# has contents, not whole mappings. wtrack.c makes the cases that lost
# that: its first preemption holds a signal (rec gave no userfaultfd
# then), new 8 MiB thread stacks (their first take read them whole), and
# a stack freed with MADV_DONTNEED as its thread ends (read whole again).
# Replay is byte for byte, with and without REWIND_NO_UFFD_WP=1.
. "$(dirname "$0")/test-lib.sh"
require_tprog wtrack
rec --probe | grep -q '^write tracking: present' && test_set_prereq UFFD_WP

# kib_hashed: the KiB each preemption of the dump hashed, one a line.
kib_hashed () {
	sed -nE 's/.* preempt at .* ([0-9]+) KiB of memory hashed.*/\1/p' dump
}

test_expect_success 'output differs natively' '
	differs_natively "$T/wtrack"
'
test_expect_success 'rec and replay write the same bytes' '
	rec_replay_cmp "$T/wtrack" &&
	run_tool tdump "$trace" >dump &&
	# Most of the 11 hand-overs of the token are preemptions (a thread
	# that has not started yet finds the token without one).
	test $(kib_hashed | wc -l) -ge 8
'
test_expect_success UFFD_WP 'every record holds what changed since the last' '
	grep " preempt at " dump >pre &&
	! grep -v "what changed since the last" pre
'
test_expect_success UFFD_WP 'no record reads a thread stack whole' '
	# Each of the 3 threads has an 8 MiB stack; what the program writes
	# between two preemptions is far less than 1 MiB.
	! kib_hashed | awk "\$1 >= 1024" | grep .
'
test_expect_success 'REWIND_NO_UFFD_WP=1: every record holds it all, replays the same' '
	REWIND_NO_UFFD_WP=1 rec_replay_cmp "$T/wtrack" &&
	run_tool tdump "$trace" >dump &&
	test $(kib_hashed | wc -l) -ge 8 &&
	! grep "what changed since the last" dump
'
test_done
