#!/bin/bash
# t2061-replay-trace-thread.sh: rec hands full chunks of the events file
# to a helper thread that compresses and writes them while the program
# runs on; with REWIND_NO_TRACE_THREAD=1 it writes them itself. Either
# way a trace of many chunks replays byte for byte. (One process: head
# reads 6 MB of /dev/urandom and writes them out.)
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'a trace of many chunks, written by the helper thread' '
	differs_natively head -c 6000000 /dev/urandom &&
	rec_replay_cmp head -c 6000000 /dev/urandom &&
	test $(stat -c %s rec.out) = 6000000 &&
	test $(stat -c %s "$trace/events") -gt 4000000
'
test_expect_success 'REWIND_NO_TRACE_THREAD=1: rec writes them itself' '
	REWIND_NO_TRACE_THREAD=1 rec_replay_cmp head -c 6000000 /dev/urandom &&
	test $(stat -c %s rec.out) = 6000000 &&
	test $(stat -c %s "$trace/events") -gt 4000000
'
test_done
