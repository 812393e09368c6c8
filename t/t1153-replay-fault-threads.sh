#!/bin/bash
# t1153-replay-fault-threads.sh: a thread's fault (SIGSEGV) kills the
# whole process while another thread sleeps in a call or computes; the
# replay ends the same way (139, same bytes) instead of waiting for ever
# for the other thread, and gdbstub's second continue comes back.
. "$(dirname "$0")/test-lib.sh"
require_tprog segvthr

for mode in sleep spin; do
	test_expect_success "$mode: rec and replay both end by SIGSEGV" '
		RR_EXPECT=139 rec_replay_cmp "$T/segvthr" $mode &&
		grep -q "^token " rec.out &&
		cp -r "$trace" "$scratch/tr.$mode"
	'
done
if command -v gdb >/dev/null 2>&1; then
	test_expect_success 'gdb: continue to the SIGSEGV, then continue again' '
		cat >two.gdb <<-END &&
		set pagination off
		target remote | $REWIND_BIN/gdbstub $scratch/tr.sleep
		continue
		echo @@ first\n
		info program
		continue
		echo @@ second\n
		END
		gdb_run "$T/segvthr" two.gdb &&
		grep -q "SIGSEGV" gdb.out &&
		grep -q "^@@ first" gdb.out &&
		grep -q "^@@ second" gdb.out
	'
else
	test_skip 'gdb: continue to the SIGSEGV, then continue again' 'no gdb'
fi
test_done
