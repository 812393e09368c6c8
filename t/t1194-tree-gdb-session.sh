#!/bin/bash
# t1194-tree-gdb-session.sh: gdb recorded by rec as it debugs a program:
# breakpoints, next and step (single steps, over syscalls too), finish,
# a watchpoint, a catchpoint on a syscall, a signal passed on, a value
# set, a threaded program; each replays byte for byte, and prints what
# it prints natively where the program is the same every run.
. "$(dirname "$0")/test-lib.sh"
command -v gdb >/dev/null 2>&1 || skip_all "no gdb"
require_tprog dbg manythreads ptbreak

# Ids, addresses and the random numbers dbg prints made alike.
alike () {
	sed -e "s/0x[0-9a-f]*/ADDR/g" -e "s/[0-9][0-9][0-9]*/N/g" -e "s/^seed .*/SEED/" "$1"
}

cat >steps.gdb <<\EOS
break square
run
bt 1
next
next
step
finish
tbreak main
continue
EOS
cat >watch.gdb <<\EOS
break push
run
delete
watch total
continue
continue
delete
stepi
set var total = 77
print total
continue
EOS
cat >catch.gdb <<\EOS
catch syscall write
run
info registers orig_rax
continue
EOS

test_expect_success 'next, step and finish through a signal handler' '
	(gdb -nx -batch -x "$scratch/steps.gdb" "$T/dbg") >nat.out 2>nat.err </dev/null
	rec_prog gdb -nx -batch -x "$scratch/steps.gdb" "$T/dbg" </dev/null &&
	check_status rec.status 0 &&
	alike nat.out >nat.lines && alike rec.out >rec.lines &&
	test_cmp_bytes nat.lines rec.lines &&
	grep -q "^handler (sig=10) at " rec.out &&
	replay_cmp
'
test_expect_success 'a watchpoint, stepi and a variable set' '
	rec_prog gdb -nx -batch -x "$scratch/watch.gdb" "$T/dbg" </dev/null &&
	check_status rec.status 0 &&
	grep -qx "\$1 = 77" rec.out &&
	replay_cmp
'
test_expect_success 'a catchpoint on write' '
	rec_prog gdb -nx -batch -x "$scratch/catch.gdb" "$T/dbg" </dev/null &&
	check_status rec.status 0 &&
	grep -q "^Catchpoint 1 (call to syscall write)" rec.out &&
	replay_cmp
'
test_expect_success 'a threaded program and its child processes run under gdb' '
	rec_prog gdb -nx -batch -ex run --args "$T/manythreads" 4 2 </dev/null &&
	check_status rec.status 0 &&
	grep -q "exited normally" rec.out &&
	grep -qx done rec.out &&
	replay_cmp
'
test_expect_success 'gdb on a program that single-steps its own child, as natively' '
	(gdb -nx -batch -ex run --args "$T/ptbreak" step) >nat.out 2>nat.err </dev/null
	rec_prog gdb -nx -batch -ex run --args "$T/ptbreak" step </dev/null &&
	alike nat.out >nat.lines && alike rec.out >rec.lines &&
	test_cmp_bytes nat.lines rec.lines &&
	replay_cmp
'
test_done
