#!/bin/bash
# t2183-tree-huge-size.sh: the trace of a program with huge mappings of
# which ten pages are used (hugemap.c: a 1 TiB reservation, a 64 GiB
# sparse file mapped private, a 16 GiB memfd mapped shared) and tseek's
# index stay small on disk: what is used, not the size mapped. A size,
# not a time: each was read whole before (memory at each preemption,
# files when mapped, checkpoints).
. "$(dirname "$0")/test-lib.sh"
require_tprog hugemap

# kib DIR: the disk DIR takes, in KiB (holes take none).
kib () {
	du -sk "$1" | cut -f1
}

for mode in reserve hole memfd; do
	test_expect_success "$mode: the trace and its index under 8 MiB" '
		rec_replay_cmp "$T/hugemap" '$mode' &&
		run_tool tseek --every 10 "$trace" &&
		sz=$(kib "$trace") && echo "$sz KiB" &&
		test "$sz" -lt 8192 &&
		sz=$(kib "$trace/seek") && echo "index $sz KiB" &&
		test "$sz" -lt 8192
	'
done
test_done
