#!/bin/bash
# t2061-replay-trace-thread.sh: rec hands full chunks of the events file
# to a helper thread that compresses and writes them while the program
# runs on; with REWIND_NO_TRACE_THREAD=1 it writes them itself. Either
# way a trace of many chunks replays byte for byte.
. "$(dirname "$0")/test-lib.sh"

prog='head -c 6000000 /dev/urandom | md5sum; head -c 3000000 /dev/urandom | od -An -tx8 | tail -n 2'

test_expect_success 'a trace of many chunks, written by the helper thread' '
	differs_natively sh -c "$prog" &&
	rec_replay_cmp sh -c "$prog" &&
	test $(stat -c %s "$trace/events") -gt 8000000
'
test_expect_success 'REWIND_NO_TRACE_THREAD=1: rec writes them itself' '
	REWIND_NO_TRACE_THREAD=1 rec_replay_cmp sh -c "$prog" &&
	test $(stat -c %s "$trace/events") -gt 8000000
'
test_done
