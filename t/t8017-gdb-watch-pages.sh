#!/bin/bash
# t8017-gdb-watch-pages.sh: watchpoints by page protection answer as debug
# registers do (wpage.c): neighbours on the watched page are stepped over
# silently; a read() into the page, a signal frame pushed beside a watched
# local and the program's own mprotect of the page go through; a page that
# cannot be protected (shared) is named on gdb's console, never missed.
. "$(dirname "$0")/test-lib.sh"
require_tprog wpage
require_gdb

src=$TEST_DIR/prog/wpage.c
at () { grep -n "/\* $1 \*/" "$src" | cut -d: -f1; }
tr=$scratch/trace.1

test_expect_success 'record wpage; replay matches' '
	differs_natively "$T/wpage" &&
	rec_replay_cmp "$T/wpage" &&
	test "$trace" = "$tr"
'
# session NAME MODE: gdb on the trace with the commands in NAME.gdb, the
# stub run with REWIND_NO_DEBUGREGS=MODE; the output in NAME.MODE.
session () {
	cat >head.gdb <<-END
	set pagination off
	handle SIGUSR1 nostop noprint pass
	target remote | env REWIND_NO_DEBUGREGS=$2 $REWIND_BIN/gdbstub $tr
	break main
	continue
	END
	gdb_run "$T/wpage" head.gdb "$1.gdb"
	local st=$?
	grep -v "^warning: remote target" gdb.out >"$1.$2"
	not_signalled $st && grep -q "^@@ end" "$1.$2"
}
cat >target.gdb <<'END'
watch -l target
echo @@ fwd\n
continue
continue
continue
continue
echo @@ back\n
reverse-continue
reverse-continue
reverse-continue
reverse-continue
delete
echo @@ rwatch\n
rwatch -l target
continue
continue
continue
continue
echo @@ stats\n
monitor stats
echo @@ end\n
END
cat >local.gdb <<'END'
watch -l local
echo @@ fwd\n
continue
continue
continue
echo @@ back\n
reverse-continue
reverse-continue
echo @@ end\n
END
test_expect_success 'gdb: the writes and reads of target, with and without debug registers' '
	session target 0 && session target 1
'
test_expect_success 'forwards: the three writes, neighbours and read() unseen' '
	gdb_section fwd target.1 >fwd &&
	test $(grep -c "^New value = " fwd) = 3 &&
	grep -Eq "^main \(\) at .*wpage\.c:$(($(at WRITE1) + 1))$" fwd &&
	grep -Eq " in handler \(sig=.*\) at .*wpage\.c:$(($(at HANDLER) + 1))$" fwd &&
	grep -Eq "^main \(\) at .*wpage\.c:$(($(at WRITE2) + 1))$" fwd
'
test_expect_success 'backwards: the same writes, before each' '
	gdb_section back target.1 >back &&
	test $(grep -c "^New value = " back) = 3 &&
	grep -Eq " in main \(\) at .*wpage\.c:$(at WRITE2)$" back &&
	grep -Eq " in handler \(sig=.*\) at .*wpage\.c:$(at HANDLER)$" back &&
	grep -Eq " in main \(\) at .*wpage\.c:$(at WRITE1)$" back
'
test_expect_success 'rwatch: the accesses in the handler, then the read on the LOCAL line' '
	gdb_section rwatch target.1 >rw &&
	test $(grep -c "^Value = " rw) = 4 &&
	grep -Eq " in handler \(sig=10\) at .*wpage\.c:$(at HANDLER)$" rw &&
	grep -Eq " in main \(\) at .*wpage\.c:$(at LOCAL)$" rw
'
test_expect_success 'page protection answered as the debug registers did' '
	gdb_section stats target.1 | grep -q "watchpoints by page protection" &&
	for s in fwd back rwatch; do
		gdb_section $s target.0 >a && gdb_section $s target.1 >b &&
		test_cmp_bytes a b || return 1
	done
'
test_expect_success 'a local on the stack: a signal frame lands beside it, writes are found both ways' '
	session local 0 && session local 1 &&
	gdb_section back local.1 >back &&
	test $(grep -c "^New value = " back) = 2 &&
	grep -Eq " in main \(\) at .*wpage\.c:$(at LOCAL)$" back &&
	for s in fwd back; do
		gdb_section $s local.0 >a && gdb_section $s local.1 >b &&
		test_cmp_bytes a b || return 1
	done
'
test_expect_success 'a watch on a shared page: one line on the console, no stop' '
	cat >shared.gdb <<-END &&
	break wpage.c:$(($(at SHARED) + 1))
	continue
	watch -l shared[0]
	echo @@ rc\n
	reverse-continue
	echo @@ end\n
	END
	session shared 1 &&
	gdb_section rc shared.1 >rc &&
	grep -Ex "rewind: cannot watch 0x[0-9a-f]+ without debug registers: its page is shared" rc &&
	! grep -q "value =" rc
'
test_done
