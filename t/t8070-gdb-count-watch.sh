#!/bin/bash
# t8070-gdb-count-watch.sh: counting.c's thread 1 writes `target` twice
# deep inside a loop that rec preempts many times. With counting
# gdbstub runs each preempted stretch to its recorded
# count and finds the place there, so a watchpoint stops at both writes,
# forwards and in reverse, and no console line says a stretch was not
# re-executed; with REWIND_NO_COUNT=1 the search gives up in the loop and
# the console says so, as before counting. So too with counting.c's loops
# run by one thread, and by four, whose preempted stretches are counted
# points of at least three threads.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_gdb
# The counted runs clear REWIND_NO_COUNT, which make check's run with the
# fallbacks forced sets: they test counting itself.

src=$TEST_DIR/prog/counting.c
w1=$(grep -n 'first write' "$src" | cut -d: -f1)
w2=$(grep -n 'second write' "$src" | cut -d: -f1)

cat >watch.gdb <<END
set pagination off
break worker
continue
delete
watch -l target
echo @@ fwd\n
continue
continue
echo @@ end\n
continue
echo @@ back\n
reverse-continue
reverse-continue
echo @@ done\n
END

# stops SECTION: the source lines the watchpoint stopped at, in order.
stops () {
	gdb_section "$1" | grep -E "^$w1|^$w2" | cut -f1 | tr '\n' ' '
}

test_expect_success 'counted: record counting; replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 200
'
# watch_both: the session above on $trace stops at both writes, each way,
# and never says a stretch was not re-executed.
watch_both () {
	{ echo "target remote | $REWIND_BIN/gdbstub $trace"; cat watch.gdb; } >a.gdb &&
	gdb_run "$T/counting" a.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	test "$(stops fwd)" = "$w1 $w2 " &&
	test "$(stops back)" = "$w2 $w1 " &&
	! grep "^rewind:.*not re-executed" gdb.out
}

test_expect_success 'counted: the watchpoint stops at both writes, forwards and back' '
	watch_both
'
test_expect_success 'one thread, counted: replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 100 1 &&
	counted
'
test_expect_success 'one thread: the watchpoint stops at both writes, forwards and back' '
	watch_both
'
test_expect_success 'four threads, counted: replay matches' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 100 4 &&
	counted
'
test_expect_success 'four threads: preempted at points of three threads or more' '
	run_tool tdump "$trace" >dump &&
	n=$(grep " preempt at .*(point: " dump | awk "{ print \$2 }" | sort -u | wc -l) &&
	echo "points in $n threads" &&
	test "$n" -ge 3
'
test_expect_success 'four threads: the watchpoint stops at both writes, forwards and back' '
	watch_both
'
test_expect_success 'REWIND_NO_COUNT=1: the console says a stretch was not re-executed' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/counting" 200 &&
	{ echo "target remote | $REWIND_BIN/gdbstub $trace"; cat watch.gdb; } >b.gdb &&
	gdb_run "$T/counting" b.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	grep -q "^rewind: thread [0-9]* was not re-executed" gdb.out
'
test_done
