#!/bin/bash
# t2082-replay-moved-pointers.sh: a pointer argument whose data the trace
# holds (a path, an input buffer, a struct or buffer the call fills) may
# point elsewhere at replay than under rec: replay compares the bytes the
# kernel reads there and writes the recorded output where the pointer
# points now. ptrmove's pointers depend on stale stack, which differs
# between rec and replay when the preloaded library answered calls.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptrmove

test_expect_success 'stat, getcwd and read into moved buffers: replayed' '
	rec_replay_cmp "$T/ptrmove" &&
	test $(grep -c "^stat /: 0 dir$" rec.out) = 2 &&
	test $(grep -c "^read: 4 ELF$" rec.out) = 4
'
test_expect_success 'and with every call traced (--stack, REWIND_NO_BUFFER)' '
	run_tool replay --stack "$trace" >stack.out 2>stack.err </dev/null
	expect_status $? 0 &&
	! grep -i divergence stack.err &&
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >nb.out 2>nb.err </dev/null
	expect_status $? 0 &&
	test_cmp_bytes rec.out nb.out
'
if command -v gdb >/dev/null 2>&1; then
	test_expect_success 'and under gdbstub' '
		gdb_cmp "$T/ptrmove"
	'
else
	test_skip 'and under gdbstub' 'no gdb'
fi
test_done
