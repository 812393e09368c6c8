#!/bin/bash
# t2208-count-point-xz.sh: threaded compute: xz with two threads on 1 MiB
# of text and random bytes, recorded counted (its worker
# threads preempted at points), replays byte for byte.
. "$(dirname "$0")/test-lib.sh"
command -v xz >/dev/null 2>&1 || skip_all "no xz"

test_expect_success 'make 1 MiB of text and random bytes' '
	{ head -c 524288 "$(command -v xz)" /usr/lib/x86_64-linux-gnu/*.so* 2>/dev/null |
		head -c 524288; head -c 524288 /dev/urandom; } >in &&
	test $(stat -c %s in) = 1048576
'
test_expect_success 'xz -T2: recorded, replay writes the same bytes' '
	rec_replay_cmp xz -T2 -c "$scratch/in" &&
	xz -d <rec.out | cmp - in
'
test_expect_success 'counted: the trace holds points' '
	run_tool tdump "$trace" >dump &&
	if grep -q "^0 .* start .*counted=[1-9]" dump && grep -q " preempt at " dump; then
		grep -q " (point: " dump
	fi
'
test_done
