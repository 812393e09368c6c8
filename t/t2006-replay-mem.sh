#!/bin/bash
# t2006-replay-mem.sh: anonymous mmap, mremap, madvise(MADV_DONTNEED),
# munmap and brk/sbrk replay to the same addresses and contents.
. "$(dirname "$0")/test-lib.sh"
require_tprog mem

test_expect_success 'output differs between native runs' '
	differs_natively "$T/mem"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/mem"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
