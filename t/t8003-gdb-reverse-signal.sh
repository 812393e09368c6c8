#!/bin/bash
# t8003-gdb-reverse-signal.sh: stepping backwards out of the SIGUSR1
# handler (reverse-stepi, reverse-step, reverse-finish) lands in the code
# the signal interrupted: the tgkill in raise(), called from main.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

src=$TEST_DIR/prog/dbg.c
handler=$(grep -n '/\* HANDLER \*/' "$src" | cut -d: -f1)
raise=$(grep -n 'raise(SIGUSR1);' "$src" | cut -d: -f1)
loop=$(grep -n '/\* LOOP \*/' "$src" | cut -d: -f1)
tr=$scratch/trace.1

cat >head.gdb <<END
set pagination off
handle SIGUSR1 nostop noprint pass
target remote | $REWIND_BIN/gdbstub $tr
break dbg.c:$handler
continue
delete
echo @@ handler\n
bt
print sig
print total
monitor when
END

# interrupted FILE: the backtrace in FILE is of the interrupted code: no
# handler, the kill under raise(), main at the raise() line.
interrupted () {
	! grep -q "handler\|<signal handler called>" "$1" &&
	grep -E "^#0 +(0x[0-9a-f]+ in )?__pthread_kill_implementation " "$1" &&
	grep -E "^#[1-9] .* in __GI_raise " "$1" &&
	grep -E "^#[2-9] +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$raise$" "$1"
}

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
# Before the handler runs, the replay is just after the signal's event
# (as replay --to shows it: the signal pending at the tgkill's return).
test_expect_success 'record dbg; replay matches; find the signal' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr" &&
	run_tool tdump "$tr" >dump &&
	awk "\$3 == \"signal\" && \$4 == \"SIGUSR1\" { print \$1 }" dump >signal &&
	test $(wc -l <signal) = 1
'
test_expect_success 'gdb: into the handler, then reverse-stepi until out of it' '
	cat >rsi.gdb <<-\END &&
	stepi 3
	set $n = 0
	while $_caller_is("handler", 0)
	  reverse-stepi
	  set $n = $n + 1
	end
	echo @@ out\n
	bt
	print total
	print $n
	monitor when
	echo @@ again\n
	stepi
	bt
	echo @@ on\n
	break square
	continue
	print total
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb rsi.gdb
	not_signalled $? &&
	mv gdb.out rsi.out &&
	grep -q "^@@ end" rsi.out
'
test_expect_success 'the handler runs from a signal, in raise(), before total changed' '
	gdb_section handler rsi.out >h &&
	grep -Ex "#0 +handler \(sig=10\) at .*dbg\.c:$handler" h &&
	grep -Ex "#1 +<signal handler called>" h &&
	grep -E "^#5 +0x[0-9a-f]+ in main \(\) at .*dbg\.c:$raise$" h &&
	printf "10\n0\n" >want && gdb_values handler rsi.out >got &&
	test_cmp_bytes want got &&
	grep -x "Current event: $(cat signal)" h
'
test_expect_success 'reverse-stepi (4 of them) leaves the handler for the tgkill' '
	gdb_section out rsi.out >out &&
	interrupted out &&
	gdb_values out rsi.out >got &&
	test "$(sed -n 1p got)" = 0 &&
	test "$(sed -n 2p got)" = 4 &&
	grep -x "Current event: $(cat signal)" out
'
test_expect_success 'stepi goes back in; the handler then runs on: total 10000' '
	gdb_section again rsi.out >again &&
	grep -Ex "#0 +handler \(sig=10\) at .*dbg\.c:$handler" again &&
	grep -Ex "#1 +<signal handler called>" again &&
	test "$(gdb_values on rsi.out)" = 10000
'
test_expect_success 'gdb: reverse-step from the HANDLER line' '
	cat >rs.gdb <<-\END &&
	echo @@ rstep\n
	reverse-step
	bt
	monitor when
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb rs.gdb
	not_signalled $? &&
	mv gdb.out rs.out &&
	grep -q "^@@ end" rs.out
'
test_expect_success 'reverse-step lands in the interrupted code' '
	gdb_section rstep rs.out >rstep &&
	interrupted rstep &&
	grep -x "Current event: $(cat signal)" rstep
'
test_expect_success 'gdb: reverse-finish from the handler' '
	cat >rf.gdb <<-\END &&
	echo @@ rfinish\n
	reverse-finish
	bt
	monitor when
	echo @@ end\n
	END
	gdb_run "$T/dbg" head.gdb rf.gdb
	not_signalled $? &&
	mv gdb.out rf.out &&
	grep -q "^@@ end" rf.out
'
test_expect_success 'reverse-finish lands in the interrupted code' '
	gdb_section rfinish rf.out >rfinish &&
	interrupted rfinish &&
	grep -x "Current event: $(cat signal)" rfinish
'
test_done
