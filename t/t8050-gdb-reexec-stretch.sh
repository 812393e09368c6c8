#!/bin/bash
# t8050-gdb-reexec-stretch.sh: prework.c's worker computes, writing a
# watched cell, then spins until rec preempts it: the computation lies in
# a preempted stretch. gdbstub re-executes such stretches and finds the
# recorded place again by its state, so a breakpoint and a watchpoint in
# it stop with the right values, forwards and in reverse; with
# REWIND_NO_REEXEC=1 the state is set instead, and gdb's console says
# that nothing could stop there.
. "$(dirname "$0")/test-lib.sh"
# The uncounted way's own test: a counted stretch is run to its count,
# never set or searched for by its state (make check's default pass).
export REWIND_NO_COUNT=1
require_tprog prework
require_gdb

src=$TEST_DIR/prog/prework.c
round=$(grep -n 'prework: round' "$src" | cut -d: -f1)
last=$(grep -n 'printf("seed' "$src" | cut -d: -f1)
tr=$scratch/trace.1

# cell K: the cell before round K, from the seed the program printed.
cell () {
	local c i
	c=$(sed -n 's/^seed \([0-9]*\) .*/\1/p' rec.out)
	for ((i = 0; i < $1; i++)); do
		c=$(((c * 31 + i) & 0xffffffff))
	done
	echo $c
}

test_expect_success 'prework prints something else each native run' '
	differs_natively "$T/prework"
'
test_expect_success 'record prework (its worker preempted); replay matches' '
	rec_replay_cmp "$T/prework" &&
	test "$trace" = "$tr" &&
	run_tool tdump "$tr" >dump &&
	tid=$(sed -n "s/.*= \([0-9]*\) (new thread of process.*/\1/p" dump) &&
	test -n "$tid" &&
	grep -Eq "^[0-9]+ $tid preempt at 0x[0-9a-f]+ \(replay sets its state, gdbstub runs the thread to it" dump
'
test_expect_success 'gdb: a breakpoint and a watchpoint in the stretch stop, forwards' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break prework.c:$round if i == 7
	echo @@ fwd\n
	continue
	print i
	print cell
	delete
	watch cell
	continue
	print cell
	echo @@ end\n
	END
	gdb_run "$T/prework" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	! grep "^rewind:" gdb.out &&
	gdb_values fwd >got &&
	printf "%s\n" 7 $(cell 7) $(cell 8) >want &&
	test_cmp_bytes want got &&
	gdb_section fwd | grep -q "hit Breakpoint 1, worker" &&
	gdb_section fwd | grep -q "hit Hardware watchpoint 2: cell"
'
test_expect_success 'gdb: and backwards from the end' '
	cat >b.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break prework.c:$last
	continue
	delete
	watch cell
	echo @@ back\n
	reverse-continue
	print i
	print cell
	delete
	break prework.c:$round if i == 30
	reverse-continue
	print i
	print cell
	echo @@ fwd\n
	delete
	watch cell
	continue
	print cell
	echo @@ end\n
	END
	gdb_run "$T/prework" b.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	! grep "^rewind:" gdb.out &&
	gdb_values back >got &&
	printf "%s\n" 39 $(cell 39) 30 $(cell 30) >want &&
	test_cmp_bytes want got &&
	gdb_values fwd >got &&
	cell 31 >want &&
	test_cmp_bytes want got
'
test_expect_success 'gdb: stepi and reverse-stepi in the stretch' '
	cat >c.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break prework.c:$round if i == 30
	continue
	echo @@ steps\n
	print \$pc
	stepi
	stepi
	reverse-stepi
	reverse-stepi
	print \$pc
	print i
	print cell
	echo @@ end\n
	END
	gdb_run "$T/prework" c.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	gdb_values steps >got &&
	{ read a; read b; read c; read d; } <got &&
	test "$a" = "$b" && test "$c" = 30 && test "$d" = $(cell 30)
'
test_expect_success 'REWIND_NO_REEXEC=1: the state is set, nothing stops, the console says so' '
	REWIND_NO_REEXEC=1 gdb_run "$T/prework" a.gdb
	not_signalled $? &&
	gdb_section fwd >out &&
	! grep "hit Breakpoint 1" out &&
	grep -Eq "^rewind: thread $tid was not re-executed up to event [0-9]+ \(preempted; its state was set\)" out
'
test_done
