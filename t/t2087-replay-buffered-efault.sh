#!/bin/bash
# t2087-replay-buffered-efault.sh: writes to a regular file (calls the
# syscall buffer logs) from a PROT_NONE page fail with EFAULT. Replay put
# them in the buffer for the library to answer, which compared their
# input bytes with the program's memory and faulted itself: "expected
# syscall write, got signal 11" (LTP's write03, write05). Such a call now
# goes traced at replay, where the engine reads through ptrace.
. "$(dirname "$0")/test-lib.sh"
require_tprog efaultwrite
unset REWIND_NO_BUFFER

test_expect_success 'output differs between native runs' '
	differs_natively "$T/efaultwrite"
'
test_expect_success 'EFAULT from the buffer: replay prints the same bytes' '
	rec_replay_cmp "$T/efaultwrite" &&
	test "$(grep -c "^write: -1 EFAULT$" rec.out)" = 3
'
test_expect_success GDB 'gdbstub runs it to its end and back to its start' '
	gdb_end_and_back "$T/efaultwrite"
'
test_done
