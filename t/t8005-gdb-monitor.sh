#!/bin/bash
# t8005-gdb-monitor.sh: gdbstub's monitor commands speak tdump's event
# numbers: when, goto (backwards and forwards), gdbstub -g, and checkpoint
# and restart, which come back to the same registers.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
getrandom=$(grep -n 'getrandom(&seed' "$src" | cut -d: -f1)
tr=$scratch/trace.1
regs () { grep -E "^(r[a-z0-9]+|e[a-z]+|[c-gs]s) +0x"; }
# le A B: A <= B, for numbers too big for test(1).
le () { awk -v a="$1" -v b="$2" "BEGIN { exit !(a + 0 <= b + 0) }"; }

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; tdump finds its getrandom and its write' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr" &&
	run_tool tdump "$tr" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^getrandom\\(/ { print \$1; exit }" dump >ev.getrandom &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump >ev.write &&
	test $(wc -l <ev.getrandom) = 1 && test $(wc -l <ev.write) = 1 &&
	test $(cat ev.getrandom) -lt $(cat ev.write)
'
test_expect_success 'gdb: when, goto, checkpoint, restart' '
	g=$(cat ev.getrandom) && w=$(cat ev.write) &&
	cat >mon.gdb <<-END &&
	set pagination off
	set breakpoint pending on
	handle SIGUSR1 nostop noprint pass
	target remote | $REWIND_BIN/gdbstub $tr
	echo @@ start\n
	monitor when
	break write
	continue
	finish
	echo @@ after-write\n
	monitor when
	delete
	echo @@ goto-back\n
	monitor goto $g
	maint flush dcache
	maint flush register-cache
	monitor when
	bt
	print used
	echo @@ goto-fwd\n
	monitor goto $w
	maint flush dcache
	maint flush register-cache
	monitor when
	bt 1
	echo @@ goto-regs\n
	info registers
	monitor goto $g
	maint flush dcache
	maint flush register-cache
	break square if x == 3
	continue
	echo @@ checkpoint\n
	monitor checkpoint
	echo @@ regs1\n
	info registers
	delete
	continue
	echo @@ restart\n
	monitor restart 1
	maint flush dcache
	maint flush register-cache
	bt
	print x
	print total
	echo @@ regs2\n
	info registers
	echo @@ on\n
	continue
	echo @@ end\n
	END
	gdb_run "$T/dbg" mon.gdb
	not_signalled $? &&
	mv gdb.out mon.out &&
	grep -q "^@@ end" mon.out
'
test_expect_success 'monitor when: event 1 at the start, the write after write()' '
	gdb_section start mon.out | grep -x "Current event: 1" &&
	gdb_section after-write mon.out >aw &&
	test "$(cat aw)" = "Current event: $(cat ev.write)"
'
test_expect_success 'monitor goto back to the getrandom: main before the list' '
	gdb_section goto-back mon.out >gb &&
	test $(grep -cx "Current event: $(cat ev.getrandom)" gb) = 2 &&
	grep -E "^#[1-9] +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$getrandom$" gb &&
	test "$(gdb_values goto-back mon.out)" = 0
'
test_expect_success 'monitor goto forwards to the write: in write()' '
	gdb_section goto-fwd mon.out >gf &&
	test $(grep -cx "Current event: $(cat ev.write)" gf) = 2 &&
	grep -E "^#0 +0x[0-9a-f]+ in (__GI___libc_write|write) " gf
'
test_expect_success 'monitor checkpoint says where it is' '
	gdb_section checkpoint mon.out >cp &&
	grep -Ex "Checkpoint 1 at event [0-9]+" cp
'
test_expect_success 'monitor restart comes back to it: event, registers, x' '
	e=$(sed -n "s/^Checkpoint 1 at event //p" mon.out) &&
	gdb_section restart mon.out >rs &&
	grep -x "Current event: $e" rs &&
	grep -E "^#0 +square \(x=(x@entry=)?3\)" rs &&
	printf "3\n10005\n" >want &&
	gdb_values restart mon.out >got &&
	test_cmp_bytes want got &&
	gdb_section regs1 mon.out | regs >regs1 &&
	gdb_section regs2 mon.out | regs >regs2 &&
	test $(wc -l <regs1) = 24 &&
	test_cmp_bytes regs1 regs2
'
test_expect_success 'the output, passed three times, was shown once' '
	grep "^seed " mon.out >shown &&
	test_cmp_bytes rec.out shown &&
	gdb_section on mon.out | grep -x "No more reverse-execution history."
'
test_expect_success 'gdb: gdbstub -g starts just after the write' '
	cat >g.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub -g $(cat ev.write) $tr
	echo @@ when\n
	monitor when
	bt 1
	echo @@ regs\n
	info registers
	echo @@ end\n
	END
	gdb_run "$T/dbg" g.gdb
	not_signalled $? &&
	mv gdb.out g.out &&
	grep -q "^@@ end" g.out
'
test_expect_success 'it is at the write, with the registers goto showed' '
	gdb_section when g.out >when &&
	grep -x "Current event: $(cat ev.write)" when &&
	grep -E "^#0 +0x[0-9a-f]+ in (__GI___libc_write|write) " when &&
	gdb_section goto-regs mon.out | regs >want &&
	gdb_section regs g.out | regs >got &&
	test $(wc -l <got) = 24 &&
	test_cmp_bytes want got
'
# Where goto past the end should go is open (refuse, or the last place);
# that the session still knows where it is and can move is not.
test_expect_success 'gdb: monitor goto past the end of the trace' '
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	cat >past.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break square
	continue
	echo @@ goto\n
	monitor goto $((last + 1000))
	monitor when
	echo @@ move\n
	reverse-stepi
	monitor when
	echo @@ end\n
	END
	gdb_run "$T/dbg" past.gdb
	not_signalled $? &&
	mv gdb.out past.out &&
	grep -q "^@@ end" past.out
'
test_expect_success 'it is refused or stops at the end; the replay can move on' '
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	gdb_section goto past.out | sed -n "s/^Current event: //p" >ev &&
	test -s ev && le "$(tail -n 1 ev)" "$last" &&
	gdb_section move past.out >move &&
	! grep -q "^rewind: " move &&
	e=$(sed -n "s/^Current event: //p" move) &&
	test -n "$e" && le "$e" "$last"
'
test_done
