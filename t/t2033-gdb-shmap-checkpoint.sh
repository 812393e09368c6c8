#!/bin/bash
# t2033-gdb-shmap-checkpoint.sh: a checkpoint holds the bytes of the files
# mapped shared: after monitor restart, the mappings show what they held
# at the checkpoint, not what later stores and ftruncate left at the end.
. "$(dirname "$0")/test-lib.sh"
require_tprog shmap
require_gdb

src=$TEST_DIR/prog/shmap.c
mid=$(grep -n "CHECK(b\[6000\] == 'X');" "$src" | cut -d: -f1)

test_expect_success 'record shmap; replay matches' '
	rec_replay_cmp "$T/shmap"
'
test_expect_success 'gdb: checkpoint, run on, restart' '
	cat >cp.gdb <<-END &&
	set pagination off
	handle SIGBUS nostop noprint pass
	target remote | $REWIND_BIN/gdbstub $trace
	break shmap.c:$mid
	continue
	monitor checkpoint
	echo @@ then\n
	print b[6000]
	print a[300]
	set \$pb = &b[6000]
	set \$pa = &a[300]
	delete
	continue
	echo @@ later\n
	print *\$pb
	print *\$pa
	echo @@ restart\n
	monitor restart 1
	maint flush dcache
	maint flush register-cache
	print *\$pb
	print *\$pa
	echo @@ on\n
	delete
	continue
	echo @@ end\n
	END
	gdb_run "$T/shmap" cp.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'the mapping held X then, 0 and R later, X again after restart' '
	printf "88 '"'"'X'"'"'\n0 '"'"'\\\\000'"'"'\n" >want.then &&
	gdb_values then >got.then &&
	gdb_values later >got.later &&
	gdb_values restart >got.restart &&
	test_cmp_bytes want.then got.then &&
	printf "0 '"'"'\\\\000'"'"'\n82 '"'"'R'"'"'\n" >want.later &&
	test_cmp_bytes want.later got.later &&
	test_cmp_bytes want.then got.restart
'
test_done
