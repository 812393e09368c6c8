#!/bin/bash
# t2007-replay-segv.sh: SIGSEGV caught by a handler on a sigaltstack that
# siglongjmps out replays faithfully.
. "$(dirname "$0")/test-lib.sh"
require_tprog segv

test_expect_success 'output differs between native runs' '
	differs_natively "$T/segv"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/segv"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_expect_success 'the faults were really taken' '
	test $(grep -c "fault at .* on altstack 1" rec.out) = 4
'
test_done
