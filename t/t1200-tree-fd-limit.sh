#!/bin/bash
# t1200-tree-fd-limit.sh: replay keeps a descriptor for each live thread
# (/proc/TID/mem), so a program with more threads alive at once than the
# soft limit on descriptors (1,024 for most users; rr's thread_stress has
# 1,500) failed in replay with "Too many open files". rec and replay
# raise their own soft limit to the hard one, after the fork: the
# program still starts with the limit it was given. And replay closes a
# thread's descriptor at its end: 80,000 threads made one after another
# (LTP's keyctl02) ran it out of descriptors.
. "$(dirname "$0")/test-lib.sh"
require_tprog manythreads seqthreads

[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 256 ] ||
	skip_all "hard limit on descriptors below 256"

test_expect_success 'output differs between native runs' '
	differs_natively "$T/manythreads" 150 0 1
'
test_expect_success '150 threads alive at once under a soft limit of 64' '
	(ulimit -Sn 64 && rec_replay_cmp "$T/manythreads" 150 0 1) &&
	test "$(grep -c "^thread .* line 3 " rec.out)" = 150
'
test_expect_success 'the program starts with the soft limit it was given' '
	(ulimit -Sn 64 && rec_replay_cmp sh -c "ulimit -n") &&
	test "$(cat rec.out)" = 64
'
test_expect_success '1,000 threads one after another under a hard limit of 256' '
	(ulimit -n 256 && rec_replay_cmp "$T/seqthreads" 1000) &&
	grep -Eq "^1000 threads, sum [0-9]+$" rec.out
'
test_done
