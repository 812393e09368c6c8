#!/bin/bash
# t8021-gdb-monitor-errors.sh: gdbstub's monitor commands fail cleanly:
# goto past the trace's end says where it ends and stays; a bad number or
# a missing one says what is wrong; checkpoint at the end of history
# gives that reason; an unknown command is named; an over-long packet
# gets an error reply and the session goes on.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

test_expect_success 'dbg prints something else each native run' '
	differs_natively "$T/dbg"
'
test_expect_success 'record dbg; replay matches' '
	rec_replay_cmp "$T/dbg" &&
	run_tool tdump "$trace" >dump &&
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	test -n "$last"
'
test_expect_success 'gdb: monitor commands with bad arguments' '
	cat >bad.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub -g 10 $trace
	echo @@ far\n
	monitor goto 99999
	monitor when
	echo @@ neg\n
	monitor goto -1
	echo @@ abc\n
	monitor goto abc
	echo @@ none\n
	monitor goto
	echo @@ two\n
	monitor goto 5 6
	echo @@ restart\n
	monitor restart 7
	monitor restart x
	echo @@ unknown\n
	monitor frobnicate
	echo @@ where\n
	monitor when
	echo @@ end\n
	continue
	echo @@ ckpt\n
	monitor checkpoint
	monitor when
	echo @@ done\n
	END
	gdb_run "$T/dbg" bad.gdb
	not_signalled $? &&
	grep -q "^@@ done" gdb.out
'
test_expect_success 'goto 99999 says where the trace ends and stays' '
	gdb_section far >far &&
	grep -qx "rewind: the trace ends at event $last; still at event 10" far &&
	grep -qx "Current event: 10" far
'
test_expect_success 'goto -1, abc, nothing, two numbers: each says what is wrong' '
	gdb_section neg | grep -qx "rewind: monitor goto: '\''-1'\'' is not an event number" &&
	gdb_section abc | grep -qx "rewind: monitor goto: '\''abc'\'' is not an event number" &&
	gdb_section none | grep -qx "rewind: monitor goto wants an event number" &&
	gdb_section two | grep -qx "rewind: monitor goto takes one argument, an event number" &&
	for s in neg abc none two; do
		! gdb_section $s | grep -q "rewind monitor commands" || return 1
	done &&
	gdb_section where | grep -qx "Current event: 10"
'
test_expect_success 'restart of no checkpoint, and an unknown command, are named' '
	gdb_section restart >restart &&
	grep -qx "rewind: no checkpoint 7 (monitor checkpoint makes one)" restart &&
	grep -qx "rewind: monitor restart: '\''x'\'' is not a checkpoint id" restart &&
	gdb_section unknown >unknown &&
	grep -qx "rewind: no monitor command '\''frobnicate'\''" unknown &&
	grep -q "monitor goto N" unknown
'
test_expect_success 'checkpoint at the end of history gives the true reason' '
	gdb_section ckpt >ckpt &&
	grep -qx "rewind: no checkpoint at the end of history: the program is exiting; go back first" ckpt &&
	! grep -q "signal" ckpt
'
# A packet longer than the stub reads (64 KiB) is answered E01; the next
# packets are served as usual and a detach ends the session with 0.
test_expect_success 'an over-long packet gets an error reply; the session goes on' '
	{
		printf "\$"; head -c 70000 /dev/zero | tr "\\0" a; printf "#%02x" $((70000 * 97 % 256))
		printf "\$?#3f\$D#44"
	} >long.in &&
	run_tool gdbstub "$trace" <long.in >long.out 2>long.err
	st=$? &&
	expect_status $st 0 &&
	grep -q "^+\\\$E01#a6+\\\$T05thread:[0-9a-f]*;#[0-9a-f][0-9a-f]+\\\$OK#9a" long.out
'
test_done
