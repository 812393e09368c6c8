#!/bin/bash
# t8072-gdb-count-threads.sh: as t8070, with counting.c's loops run by one
# thread and by four: a watchpoint on `target`, written twice deep inside
# the last thread's loop, stops at both writes forwards and in reverse,
# and no console line says a stretch was not re-executed. With four
# threads taking turns on the recorder, the stretches between their
# preemptions are counted points of at least three threads, each run to
# its recorded count.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_gdb
# Counting itself is tested: REWIND_NO_COUNT (set by make check's run
# with the fallbacks forced) is cleared for these recordings.

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

stops () {
	gdb_section "$1" | grep -E "^$w1|^$w2" | cut -f1 | tr '\n' ' '
}

# watch_both: the session above on $trace stops at both writes, each way.
watch_both () {
	{ echo "target remote | $REWIND_BIN/gdbstub $trace"; cat watch.gdb; } >w.gdb &&
	gdb_run "$T/counting" w.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	test "$(stops fwd)" = "$w1 $w2 " &&
	test "$(stops back)" = "$w2 $w1 " &&
	! grep "^rewind:.*not re-executed" gdb.out
}

test_expect_success 'one thread, counted: replay matches' '
	REWIND_NO_COUNT= REWIND_COUNT=1 rec_replay_cmp "$T/counting" 100 1 &&
	counted
'
test_expect_success 'one thread: the watchpoint stops at both writes, forwards and back' '
	watch_both
'
test_expect_success 'four threads, counted: replay matches' '
	REWIND_NO_COUNT= REWIND_COUNT=1 rec_replay_cmp "$T/counting" 100 4 &&
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
test_done
