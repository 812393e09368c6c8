#!/bin/bash
# t2035-gdb-shared-anon-checkpoint.sh: a checkpoint (a fork of the
# replay) shares a MAP_SHARED|MAP_ANONYMOUS mapping with it, so it keeps
# the mapping's bytes: after monitor restart the mapping holds what it
# held at the checkpoint, not what a later process stored.
. "$(dirname "$0")/test-lib.sh"
require_tprog shanon
require_gdb

test_expect_success 'output differs natively; record and replay match' '
	differs_natively "$T/shanon" &&
	rec_replay_cmp "$T/shanon"
'
test_expect_success 'gdb: checkpoint at the second step, run to the end, restart' '
	cat >cp.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break getppid
	continue
	continue
	monitor checkpoint
	up
	echo @@ then\n
	print p[0]
	set \$q = p
	delete
	continue
	echo @@ later\n
	print *\$q
	echo @@ restart\n
	monitor restart 1
	maint flush dcache
	maint flush register-cache
	print *\$q
	echo @@ on\n
	continue
	echo @@ end\n
	END
	gdb_run "$T/shanon" cp.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'the mapping held 2, then the child'"'"'s value, then 2 again' '
	child=$(sed -n "s/^the child stored \([0-9a-f]*\)$/\1/p" rec.out) &&
	test "$(gdb_values then)" = 2 &&
	test "$(gdb_values later)" = $((0x$child)) &&
	test "$(gdb_values restart)" = 2 &&
	! grep -q divergence gdb.out
'
test_done
