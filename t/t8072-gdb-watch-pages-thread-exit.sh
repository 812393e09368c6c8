#!/bin/bash
# t8072-gdb-watch-pages-thread-exit.sh: a watchpoint by page protection
# (REWIND_NO_DEBUGREGS=1) stops at a write made after another thread of
# the process ended, forwards and in reverse, as one by debug registers
# does. The stub read the page's protection through the thread on its way
# out, which shows no mappings, and never protected the page again.
. "$(dirname "$0")/test-lib.sh"
require_tprog exitwatch
require_gdb

src=$TEST_DIR/prog/exitwatch.c
w1=$(grep -n 'first write' "$src" | cut -d: -f1)
w2=$(grep -n 'second write' "$src" | cut -d: -f1)

# stops SECTION: the source lines the watchpoint stopped at, in order
# (forwards gdb shows the line after a write, in reverse its own line).
stops () {
	gdb_section "$1" | grep -E "^$w1|^$w2" | cut -f1 | tr '\n' ' '
}

test_expect_success 'record exitwatch; replay matches' '
	differs_natively "$T/exitwatch" &&
	rec_replay_cmp "$T/exitwatch"
'
for mode in 0 1; do
	test_expect_success "REWIND_NO_DEBUGREGS=$mode: the watchpoint stops at both writes, forwards and back" '
		cat >a.gdb <<-END &&
		set pagination off
		target remote | env REWIND_NO_DEBUGREGS=$mode $REWIND_BIN/gdbstub $trace
		break main
		continue
		watch -l target
		echo @@ fwd\n
		continue
		continue
		continue
		echo @@ back\n
		reverse-continue
		reverse-continue
		echo @@ done\n
		END
		gdb_run "$T/exitwatch" a.gdb
		not_signalled $? &&
		grep -q "^@@ done" gdb.out &&
		test "$(gdb_section fwd | grep -c "^Old value")" = 2 &&
		test "$(stops back)" = "$w2 $w1 "
	'
done
test_done
