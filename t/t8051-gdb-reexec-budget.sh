#!/bin/bash
# t8051-gdb-reexec-budget.sh: spin.c count's spinner counts in its loop, so
# its state never repeats and the place rec preempted it at is millions of
# arrivals away: the search gives up after REWIND_REEXEC_BUDGET arrivals,
# sets the recorded state, and gdb's console says so in one line. Where
# it gives up is the same every time, so reverse-continue finds the stops
# made before it again, and continue comes back to them.
. "$(dirname "$0")/test-lib.sh"
# The uncounted way's own test: a counted stretch is run to its count,
# never set or searched for by its state (make check's default pass).
export REWIND_NO_COUNT=1
require_tprog spin
require_gdb

src=$TEST_DIR/prog/spin.c
nline=$(grep -n 'n++;' "$src" | cut -d: -f1)
jline=$(grep -n 'pthread_join(t, &res);' "$src" | cut -d: -f1)
tr=$scratch/trace.1

test_expect_success 'spin count prints something else each native run' '
	differs_natively "$T/spin" count
'
test_expect_success 'record spin count; replay matches' '
	rec_replay_cmp "$T/spin" count &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: stops in the loop, on past the give-up, back and forth' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break spin.c:$nline
	continue
	delete
	break spin.c:$jline
	echo @@ fwd\n
	continue
	echo @@ back\n
	delete
	break spin.c:$nline
	reverse-continue
	print n
	reverse-continue
	print n
	continue
	print n
	echo @@ end\n
	END
	REWIND_REEXEC_BUDGET=100 gdb_run "$T/spin" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	! grep -Ei "lost|error" gdb.out &&
	gdb_section fwd >fwd &&
	grep -q "main (.*) at t/prog/spin.c:$jline" fwd &&
	gdb_values back >v &&
	test $(wc -l <v) = 3 &&
	{ read a; read b; read c; } <v &&
	test "$b" -lt "$a" && test "$c" = "$a"
'
# Where the spinner ran as little as 100 turns before rec stopped it
# (a machine too busy to run it), its place is found: no line then.
test_expect_success 'the console line says why the state was set' '
	grep "^rewind:" fwd >gap || :
	test $(wc -l <gap) -le 1 &&
	if test -s gap; then
		grep -Eq "^rewind: thread [0-9]+ was not re-executed up to event [0-9]+ \(preempted at 0x[0-9a-f]+, a place not found again within 100 arrivals there \(REWIND_REEXEC_BUDGET\); its state was set\): a breakpoint or watchpoint there cannot stop" gap
	fi
'
test_done
