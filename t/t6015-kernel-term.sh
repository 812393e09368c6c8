#!/bin/bash
# t6015-kernel-term.sh: SIGTERM to rec while the program maps a 100 GB
# sparse file (rec hashes what the program maps) and waits: the program
# gets it and ends of it within a few seconds, and the trace is whole,
# small (the hole takes no room) and replays to the same end.
. "$(dirname "$0")/test-lib.sh"
require_tprog bighole

test_expect_success 'SIGTERM ends the program under rec within 10 s' '
	rec -o tr "$T/bighole" >out 2>err &
	recpid=$!
	wait_for out "mapped ok" &&
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
		! grep -q "ends early" err
	fi
'
test_expect_success 'the trace reads whole, shows the signal, and is small' '
	tdump tr >dump 2>derr
	! grep -q "ends early" derr &&
	grep -Eq "^[0-9]+ [0-9]+ signal.*SIGTERM" dump &&
	test "$(du -sk tr | cut -f1)" -lt 100000
'
test_expect_success 'replay ends the same way' '
	(mkdir -p el && cd el && run_tool replay ../tr) >rout 2>rerr
	expect_status $? 143 &&
	test_cmp_bytes out rout
'
test_done
