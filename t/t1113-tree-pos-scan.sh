#!/bin/bash
# t1113-tree-pos-scan.sh: a preemption hashes the process's writable
# memory; the untouched pages of anonymous mappings are found with
# PAGEMAP_SCAN and kept as zero runs. With REWIND_NO_PAGEMAP_SCAN=1 every
# byte is read, in rec and in replay, and a -fsanitize=address program
# (terabytes of shadow reserved) is refused in one line, not hung on.
. "$(dirname "$0")/test-lib.sh"
require_tprog spin spin-asan

test_expect_success 'output differs natively' '
	differs_natively "$T/spin-asan"
'
test_expect_success 'spin: record with PAGEMAP_SCAN, replay without' '
	rec_replay_cmp "$T/spin" &&
	run_tool tdump "$trace" | grep -q " preempt" &&
	REWIND_NO_PAGEMAP_SCAN=1 replay_cmp
'
test_expect_success 'spin: record without PAGEMAP_SCAN, replay with' '
	REWIND_NO_PAGEMAP_SCAN=1 rec_replay_cmp "$T/spin" &&
	run_tool tdump "$trace" | grep -q " preempt"
'
test_expect_success 'an ASan program preempted records and replays' '
	rec_replay_cmp "$T/spin-asan" &&
	run_tool tdump "$trace" | grep -q " preempt"
'
test_expect_success 'without PAGEMAP_SCAN it is refused in one line' '
	REWIND_NO_PAGEMAP_SCAN=1 rec_prog "$T/spin-asan" &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: cannot read the state of thread [0-9]+: its writable memory is too large to read without PAGEMAP_SCAN$"
'
test_done
