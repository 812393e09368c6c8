#!/bin/bash
# t2215-count-calls.sh: backward direct calls (recursion) and indirect
# calls are counted edges (patcher 7). fibrec's two threads recurse, one
# by direct calls, one through a function pointer: each of those calls
# is a patched site (REWIND_COUNT_SITES), the recording replays byte for
# byte, and under gdbstub a backtrace from inside the recursion shows the
# program's own return addresses (the trampoline pushes the original
# one), forwards and after reverse-stepi.
. "$(dirname "$0")/test-lib.sh"
require_tprog fibrec
require_gdb
command -v objdump >/dev/null 2>&1 || skip_all "no objdump"
unset REWIND_NO_COUNT

# The calls inside function $1 of fibrec, as addresses under rec (a PIE
# at rec's fixed base, ASLR being off).
calls_in () {
	objdump -d --no-show-raw-insn "$T/fibrec" |
	awk -v f="<$1>:" '$2 == f { p = 1; next } p && NF == 0 { p = 0 }
		p && $2 == "call" { sub(":", "", $1); print $1 }' |
	while read -r off; do
		printf "%x\n" $((0x$off + 0x555555554000))
	done
}

test_expect_success 'fibrec prints something else each native run' '
	differs_natively "$T/fibrec"
'
test_expect_success 'recorded counted, replay prints the same bytes' '
	REWIND_COUNT_SITES=$scratch/sites rec_replay_cmp "$T/fibrec" &&
	counted
'
test_expect_success 'each recursive call, direct or through the pointer, is a patched site' '
	calls_in fib_direct >direct && calls_in fib_pointer >pointer &&
	test $(wc -l <direct) -ge 2 && test $(wc -l <pointer) -ge 2 &&
	cat direct pointer >calls &&
	python3 - calls sites <<-\EOF
	import sys
	calls = [int(l, 16) for l in open(sys.argv[1]) if l.strip()]
	sites = [(int(w[2], 16), int(w[4])) for w in (l.split() for l in open(sys.argv[2]))
	         if w and w[0] == "site"]
	bad = [hex(c) for c in calls if not any(a <= c < a + n for a, n in sites)]
	print("not patched:", *bad) if bad else None
	sys.exit(1 if bad else 0)
	EOF
'
test_expect_success 'gdbstub: a backtrace inside the recursion, then after reverse-stepi' '
	cat >bt.gdb <<-EOF &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break fib_direct
	continue
	continue
	continue
	echo @@ fwd\n
	bt 3
	stepi
	stepi
	reverse-stepi
	reverse-stepi
	echo @@ back\n
	bt 3
	echo @@ done\n
	EOF
	gdb_run "$T/fibrec" bt.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out &&
	gdb_section fwd >fwd &&
	gdb_section back >back &&
	grep -Eq "^#1  0x[0-9a-f]+ in fib_direct \(n=" fwd &&
	grep -Eq "^#2  0x[0-9a-f]+ in fib_direct \(n=" fwd &&
	grep -Eq "^#1  0x[0-9a-f]+ in fib_direct \(n=" back &&
	! grep -q "^rewind:" gdb.out
'
test_done
