#!/bin/bash
# t2011-replay-refill.sh: pages of a private file mapping that the kernel
# refills from the file (MADV_DONTNEED, a growing mremap) replay with the
# file's bytes, although replay's copy of the mapping is anonymous.
. "$(dirname "$0")/test-lib.sh"
require_tprog refill

test_expect_success 'output differs between native runs' '
	differs_natively "$T/refill"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/refill"
'
test_expect_success 'the refill really happened' '
	grep -q "^written  ZZZZ" rec.out &&
	! grep -q "^refilled ZZZZ" rec.out
'
test_done
