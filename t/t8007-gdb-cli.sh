#!/bin/bash
# t8007-gdb-cli.sh: gdbstub's command line: --listen on a TCP port, -g past
# the end, and bad traces refused with one line and a status.
. "$(dirname "$0")/test-lib.sh"
require_tprog dbg
require_gdb

tr=$scratch/trace.1

test_expect_success 'record dbg' '
	rec_replay_cmp "$T/dbg" &&
	test "$trace" = "$tr"
'
test_expect_success '--listen 0 says where it listens, on 127.0.0.1, and serves gdb there' '
	"$REWIND_BIN/gdbstub" --listen 0 "$tr" 2>stub.err &
	stub=$! &&
	for i in $(seq 50); do grep -q listening stub.err && break; sleep 0.1; done &&
	port=$(sed -n "s/^gdbstub: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p" stub.err) &&
	test -n "$port" &&
	cat >listen.gdb <<-END &&
	set pagination off
	target remote 127.0.0.1:$port
	monitor when
	kill
	END
	gdb_run "$T/dbg" listen.gdb &&
	wait $stub &&
	grep -q "^Current event: 1$" gdb.out
'
test_expect_success '--listen on a port in use is refused with one line' '
	"$REWIND_BIN/gdbstub" --listen 0 "$tr" 2>busy.err &
	stub=$! &&
	for i in $(seq 50); do grep -q listening busy.err && break; sleep 0.1; done &&
	port=$(sed -n "s/.*:\([0-9]*\)$/\1/p" busy.err) &&
	run_tool gdbstub --listen "$port" "$tr" 2>err;
	st=$?
	kill $stub; wait $stub
	expect_status $st 2 &&
	test $(wc -l <err) = 1 &&
	grep -q "^gdbstub: cannot listen on 127.0.0.1:$port" err
'
test_expect_success '-g past the end names the last event and exits 2' '
	run_tool gdbstub -g 999999 "$tr" </dev/null >out 2>err;
	expect_status $? 2 &&
	grep -Eq "^gdbstub: -g 999999: the trace ends at event [0-9]+$" err
'
test_expect_success 'a missing trace: one line, status 125' '
	run_tool gdbstub "$scratch/nothing" </dev/null >out 2>err;
	expect_status $? 125 &&
	test $(wc -l <err) = 1 &&
	grep -q "^gdbstub: .*nothing" err
'
test_expect_success 'a bad option: usage, status 2' '
	run_tool gdbstub --bogus </dev/null >out 2>err;
	expect_status $? 2 &&
	grep -q "usage: gdbstub" err
'
test_done
