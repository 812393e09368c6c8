#!/bin/bash
# t8008-gdb-watch-counted.sh: every write of a variable written in a loop,
# seen going backwards (hits the kernel counts) and going forwards (a stop
# at each), are the same writes with old and new values swapped.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

tr=$scratch/trace.1
src=$TEST_DIR/prog/dbg.c
out=$(grep -n 'printf("seed' "$src" | cut -d: -f1)

test_expect_success 'record dbg' '
	differs_natively "$T/dbg" &&
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr"
'
test_expect_success 'the writes of total, forwards and backwards' '
	cat >w.gdb <<-END &&
	set pagination off
	handle SIGUSR1 nostop noprint pass
	target remote | $REWIND_BIN/gdbstub $tr
	break dbg.c:$out
	continue
	watch -l total
	set \$k = 0
	while \$k < 40
	  reverse-continue
	  set \$k = \$k + 1
	end
	echo @@ turn\n
	set \$k = 0
	while \$k < 40
	  continue
	  set \$k = \$k + 1
	end
	END
	gdb_run "$T/dbg" w.gdb &&
	awk "/^@@ turn/ { fwd = 1 } /^Old value = / { o = \$4 } /^New value = / { print (fwd ? \"f\" : \"b\"), o, \$4 }" gdb.out >pairs &&
	grep "^b" pairs | awk "{ print \$3, \$2 }" >back &&
	grep "^f" pairs | awk "{ print \$2, \$3 }" | tac >fwd &&
	test -s back &&
	test_cmp_bytes back fwd
'
test_done
