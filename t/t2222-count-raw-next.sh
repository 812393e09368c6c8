#!/bin/bash
# t2222-count-raw-next.sh: one thread's next call is one the syscall
# buffer logged, another's a close the library leaves to libc's wrapper
# (rawnext.c). Replay tells the library, in its process's header, that
# the first thread's call goes without libc's wrapper (raw_next), and
# must tell it again that the second's does not: it kept what it last
# wrote per thread, so the second thread's close skipped libc's counted
# code and its next point was not found (4 of 4 --chaos seeds; LTP's
# setsockopt07 every run). Replay, and gdbstub to the end and back.
. "$(dirname "$0")/test-lib.sh"
require_tprog rawnext
unset REWIND_NO_COUNT REWIND_NO_BUFFER

test_expect_success 'output differs between native runs' '
	differs_natively "$T/rawnext"
'
test_expect_success 'under --chaos: replay prints the same bytes' '
	for seed in 1 2 3; do
		rec_chaos $seed "$T/rawnext" && expect_status "$(cat rec.status)" 0 &&
		replay_cmp || return 1
	done
'
test_expect_success GDB 'gdbstub runs the last trace to its end and back to its start' '
	gdb_end_and_back "$T/rawnext"
'
test_expect_success 'and without --chaos' '
	rec_replay_cmp "$T/rawnext"
'
test_done
