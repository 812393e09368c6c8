#!/bin/bash
# t2135-replay-stack-limit.sh: setrlimit(RLIMIT_STACK) is performed at
# replay too: it lays out the mappings of the next exec (unlimited: the
# legacy layout) and bounds how far the stack grows. Replay answered it
# from the trace, so an exec after it mapped the program elsewhere and
# crashed, and a recursion ran past the recorded overflow.
. "$(dirname "$0")/test-lib.sh"
require_tprog stacklimit

test_expect_success 'native output differs (token)' '
	differs_natively "$T/stacklimit"
'
test_expect_success 'the layout after exec and the overflow replay' '
	rec_replay_cmp "$T/stacklimit" &&
	grep -q "^after exec with the .* stack limit: a mapping at 0x" rec.out &&
	grep -q "^with a 256 KiB stack: SIGSEGV at depth [0-9]*$" rec.out
'
test_done
