#!/bin/bash
# t2135-replay-stack-limit.sh: setrlimit of RLIMIT_STACK, RLIMIT_DATA and
# RLIMIT_AS is performed at replay too: the stack's limit lays out the
# mappings of the next exec (unlimited: the legacy layout) and bounds how
# far the stack grows; the data limit bounds brk. Replay answered them
# from the trace, so an exec after one mapped the program elsewhere and
# crashed, a recursion ran past the recorded overflow, and a brk the
# limit refused worked (a divergence).
. "$(dirname "$0")/test-lib.sh"
require_tprog stacklimit

test_expect_success 'native output differs (token)' '
	differs_natively "$T/stacklimit"
'
test_expect_success 'the layout after exec and the overflow replay' '
	rec_replay_cmp "$T/stacklimit" &&
	grep -q "^after exec with the .* stack limit: a mapping at 0x" rec.out &&
	grep -q "^with a 256 KiB stack: SIGSEGV at depth [0-9]*$" rec.out &&
	grep -q "^with an 8 MiB data limit: sbrk of 64 MiB fails, of a page works$" rec.out
'
test_done
