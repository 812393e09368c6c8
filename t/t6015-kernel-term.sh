#!/bin/bash
# t6015-kernel-term.sh: SIGTERM stops rec within a few seconds even while
# it is busy with a program that maps a 100 GB sparse file (rec hashes
# what the program maps); the trace reads as ending early, and the
# hole takes no room in it.
. "$(dirname "$0")/test-lib.sh"
require_tprog bighole

test_expect_success 'SIGTERM ends rec while it reads a 100 GB hole' '
	rec -o tr "$T/bighole" >out 2>err &
	recpid=$!
	sleep 1
	kill -TERM $recpid
	i=0
	while kill -0 $recpid 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $recpid 2>/dev/null; then
		kill -9 $recpid
		echo "rec still ran 10 s after SIGTERM"
		false
	else
		wait $recpid
		st=$?
		cat err
		expect_status $st 143 &&
		grep -q "^rec: killed by signal 15" err
	fi
'
test_expect_success 'the trace reads, ends early, and is small' '
	tdump tr >dump 2>derr
	grep -q "start" dump &&
	grep -q "ends early" derr &&
	test "$(du -sk tr | cut -f1)" -lt 100000
'
test_done
