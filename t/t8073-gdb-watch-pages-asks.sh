#!/bin/bash
# t8073-gdb-watch-pages-asks.sh: an rt_sigaction that only asks passes
# rec's filter without a stop and writes its answer beside a watched
# local (watchask.c). Watching by page protection, gdbstub makes that
# page read-only while the program runs, so it stops at each such call
# and makes it with the pages open: the answer lands, and the watch
# sees the same writes as with debug registers (before, the kernel's
# write failed and the replay went on with other values). replay with
# REWIND_TRACE_ALL=1 makes each itself the same way.
. "$(dirname "$0")/test-lib.sh"
require_tprog watchask

src=$TEST_DIR/prog/watchask.c
at () { grep -n "/\* $1 \*/" "$src" | cut -d: -f1; }

test_expect_success 'record watchask; replay matches' '
	differs_natively "$T/watchask" &&
	rec_replay_cmp "$T/watchask" &&
	tr=$trace
'
test_expect_success 'REWIND_TRACE_ALL=1: replay stops at each call let through, and matches' '
	REWIND_TRACE_ALL=1 replay_cmp "$tr"
'
if command -v gdb >/dev/null 2>&1; then
# session MODE: gdb watching counter, the stub run with REWIND_NO_DEBUGREGS=MODE.
session () {
	cat >w.gdb <<-END
	set pagination off
	target remote | env REWIND_NO_DEBUGREGS=$1 $REWIND_BIN/gdbstub $tr
	break watchask.c:$(at WRITE)
	continue
	watch counter
	echo @@ fwd\n
	continue
	continue
	continue
	echo @@ end\n
	END
	gdb_run "$T/watchask" w.gdb
	local st=$?
	grep -v "^warning: remote target" gdb.out >"w.$1"
	not_signalled $st && grep -q "^@@ end" "w.$1"
}
test_expect_success 'gdb: the watched local changes by the answer, by page protection as by debug registers' '
	session 0 && session 1 &&
	gdb_section fwd w.1 >fwd &&
	test $(grep -c "^New value = " fwd) = 3 &&
	grep -Eq "^step \(.*\) at .*watchask\.c:$(($(at ASKED) + 1))$" fwd &&
	gdb_section fwd w.0 >fwd0 &&
	test_cmp_bytes fwd0 fwd &&
	! grep -i divergence w.1
'
fi
# Without the syscall buffer rec lets nothing through: no item to change.
test_expect_success 'a trace whose filter let through calls this replay does not know is refused' '
	if ! run_tool tdump "$tr" | head -n 1 | grep -q " untraced="; then
		return 0
	fi
	cp -a "$tr" future &&
	set_start_item future 30 3 &&
	run_tool replay future >f.out 2>f.err </dev/null
	test $? -ne 0 && test ! -s f.out &&
	one_line_error f.err "^replay: .*future/events: its filter let calls through that this replay does not know \(bits 0x3\)"
'
test_done
