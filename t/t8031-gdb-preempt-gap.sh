#!/bin/bash
# t8031-gdb-preempt-gap.sh: spin.c's spinner is preempted (no syscall in its
# loop). With REWIND_NO_REEXEC=1 replay sets its state instead of running
# that stretch, so a breakpoint in the loop cannot stop there: a continue
# and a reverse-continue that pass it say so on gdb's console, naming the
# thread and the event. By default gdbstub runs the stretch (t8050) and
# says nothing; tdump says which way each stretch is replayed.
. "$(dirname "$0")/test-lib.sh"
# The uncounted way's own test: a counted stretch is run to its count,
# never set or searched for by its state (make check's default pass).
export REWIND_NO_COUNT=1
require_tprog spin
require_gdb

src=$TEST_DIR/prog/spin.c
line=$(grep -n 'while (!atomic_load(&flag))' "$src" | tail -n 1 | cut -d: -f1)
tr=$scratch/trace.1

test_expect_success 'spin prints something else each native run' '
	differs_natively "$T/spin"
'
test_expect_success 'record spin (preempted); replay matches; tdump says so' '
	rec_replay_cmp "$T/spin" &&
	test "$trace" = "$tr" &&
	run_tool tdump "$tr" >dump &&
	grep -E "^[0-9]+ [0-9]+ preempt at 0x[0-9a-f]+ \(replay sets its state, gdbstub runs the thread to it" dump >pre &&
	test -s pre
'
test_expect_success 'gdb: a breakpoint in the spin loop, continue to the end and back' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break spin.c:$line
	echo @@ fwd\n
	continue
	continue
	continue
	echo @@ back\n
	reverse-continue
	reverse-continue
	reverse-continue
	echo @@ end\n
	END
	REWIND_NO_REEXEC=1 gdb_run "$T/spin" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
# The line names a preemption of the spinner tdump lists.
# gap_re: gdbstub's line for a stretch it passed, naming one of the
# preemptions in pre (a loaded machine preempts a thread more than once,
# at its start too: the line names the last one passed, and counts the
# others).
gap_re () {
	local evs tids
	evs=$(cut -d" " -f1 pre | paste -sd"|")
	tids=$(cut -d" " -f2 pre | sort -u | paste -sd"|")
	echo "^rewind: thread ($tids) was not re-executed up to event ($evs) \(preempted; its state was set\): a breakpoint or watchpoint there cannot stop"
}
test_expect_success 'continue said once which stretch it could not stop in' '
	gdb_section fwd gdb.out | grep -Ec "$(gap_re)" >n &&
	test $(cat n) = 1
'
# Backwards, the line names the latest of the stretches passed.
test_expect_success 'reverse-continue said so too' '
	gdb_section back gdb.out | grep -Ec "$(gap_re)" >n &&
	test $(cat n) = 1
'
# (How often the loop is passed in preempted stretches depends on where
# rec stopped the spinner: t8050 checks the stops themselves.)
test_expect_success 'by default the stretches are run: no gap, no fewer stops' '
	# (none at all where rec stopped the spinner only at the first
	# instruction of the loop, as when counted: grep -c fails)
	{ gdb_section fwd gdb.out | grep -c "hit Breakpoint 1, spinner" || :; } >n.set &&
	gdb_run "$T/spin" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	! grep "^rewind:" gdb.out &&
	gdb_section fwd gdb.out | grep -c "hit Breakpoint 1, spinner" >n &&
	test $(cat n) -ge $(cat n.set)
'
test_done
