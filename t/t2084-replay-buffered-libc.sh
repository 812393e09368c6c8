#!/bin/bash
# t2084-replay-buffered-libc.sh: the calls libc makes inside itself
# (stdio's lseek, fstat and close; its opens of locale files), which
# pass by the names rec's library defines, reach its wrappers all the
# same through the jumps rec and
# replay put in libc's stubs (bufredir.c): logged without a stop, and
# replayed byte for byte, answered in the process or each traced, and
# under gdb with a breakpoint on the stub; with REWIND_NO_REDIRECT=1 the
# same calls each stop, and replay alike.
. "$(dirname "$0")/test-lib.sh"
require_tprog stdioseek
require_tprog localeopen
require_gdb
[ -n "${REWIND_NO_BUFFER:-}" ] && [ "$REWIND_NO_BUFFER" != 0 ] &&
	skip_all 'REWIND_NO_BUFFER is set'

# calls NAME DUMP [buffered|traced]: how many NAME calls DUMP has, of that kind.
calls () {
	grep "\"kind\":\"syscall\"" "$2" | grep "\"name\":\"$1\"" |
		if [ "${3:-}" = buffered ]; then grep -c '"buffered":true'
		elif [ "${3:-}" = traced ]; then grep -vc '"buffered":true'
		else wc -l; fi
}

test_expect_success 'stdio on a file: libc lseek, fstat and close go without a stop' '
	differs_natively "$T/stdioseek" &&
	rec_replay_cmp "$T/stdioseek" &&
	run_tool tdump --json "$trace" >dump.json &&
	test $(calls lseek dump.json) -ge 200 &&
	test $(calls lseek dump.json traced) = 0 &&
	test $(calls close dump.json buffered) -ge 2 &&
	grep "\"name\":\"newfstatat\"" dump.json | grep "\"buffered\":true" | grep -q "\"args\":\[3,"
'
test_expect_success 'replay with each of them traced: the same bytes' '
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >traced.out 2>traced.err &&
	test_cmp_bytes rec.out traced.out
'
test_expect_success 'gdb: a breakpoint on lseek set before the jump goes in still stops there, every time' '
	cat >bp.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break lseek
	continue
	continue
	echo @@ insn\\n
	x/i \$pc
	echo @@ end\\n
	delete
	continue
	END
	gdb_run "$T/stdioseek" bp.gdb &&
	test $(grep -c "^Breakpoint 1[.0-9]*, __lseek" gdb.out) = 2 &&
	gdb_section insn | grep -q "jmp .*<rwbuf_lseek>" &&
	grep -q "^No more reverse-execution history" gdb.out &&
	grep -qxF -f rec.out gdb.out
'
test_expect_success 'REWIND_NO_REDIRECT=1: the same calls, each a stop, replayed' '
	n=$(calls lseek dump.json) &&
	REWIND_NO_REDIRECT=1 rec_replay_cmp "$T/stdioseek" &&
	run_tool tdump --json "$trace" >plain.json &&
	test $(calls lseek plain.json) = $n &&
	test $(calls lseek plain.json traced) = $n
'
test_expect_success 'libc opens of locale files, there or not, go without a stop' '
	differs_natively "$T/localeopen" &&
	rec_replay_cmp "$T/localeopen" &&
	grep -q "^locale C.UTF-8, fopen No such file or directory, " rec.out &&
	run_tool tdump --json "$trace" >locale.json &&
	grep "\"name\":\"openat\"" locale.json | grep "/usr/lib/locale/" >opens &&
	grep "\"buffered\":true" opens | grep -q "\"ret\":3," &&
	grep "\"buffered\":true" opens | grep -q "\"ret\":-2," &&
	! grep -v "\"buffered\":true" opens &&
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >locale-traced.out &&
	test_cmp_bytes rec.out locale-traced.out &&
	REWIND_NO_REDIRECT=1 rec_replay_cmp "$T/localeopen" &&
	run_tool tdump --json "$trace" >locale-plain.json &&
	grep "\"name\":\"openat\"" locale-plain.json | grep "/usr/lib/locale/" >plain-opens &&
	test -s plain-opens && ! grep -q "\"buffered\":true" plain-opens
'
test_done
