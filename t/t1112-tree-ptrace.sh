#!/bin/bash
# t1112-tree-ptrace.sh: a program that ptraces its own child (attach,
# wait for the stop, PEEKDATA, GETREGS, attach to itself, detach; or the
# child's PTRACE_TRACEME, its signal stops seen by the parent's wait4 and
# continued with PTRACE_CONT; POKEDATA and SETREGS on it) records and
# replays; a ptrace request rec does not emulate is refused at once, by
# name, in one line.
. "$(dirname "$0")/test-lib.sh"
require_tprog pattach forker

test_expect_success 'output differs natively' '
	differs_natively "$T/pattach"
'
test_expect_success 'record and replay byte for byte' '
	rec_replay_cmp "$T/pattach" &&
	grep -qx "wait the child, stopped 1 by signal 19" rec.out &&
	child=$(sed -n "s/^child read 1 //p" rec.out) &&
	grep -qx "peek $child errno 0" rec.out &&
	grep -qx "attach self: -1" rec.out &&
	grep -qx "child exited 0" rec.out
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_expect_success 'PTRACE_TRACEME: the stops reach the parent, record and replay' '
	differs_natively "$T/pattach" traceme &&
	rec_replay_cmp "$T/pattach" traceme &&
	grep -qx "stop 0: signal 19" rec.out &&
	grep -qx "stop 1: signal 10" rec.out &&
	grep -qx "child got signal 10" rec.out &&
	grep -Eqx "child exited ([0-9]+) \(want \1\)" rec.out
'
test_expect_success 'PTRACE_POKEDATA and SETREGS on a stopped child: record and replay' '
	differs_natively "$T/pattach" poke &&
	rec_replay_cmp "$T/pattach" poke &&
	v=$(sed -nE "s/^parent poked ([0-9a-f]{16}): 0 0 0$/\1/p" rec.out) &&
	test -n "$v" &&
	grep -qx "child sees $v" rec.out &&
	grep -qx "child exited 0" rec.out
'
test_expect_success 'PTRACE_SINGLESTEP: made (t1193 has more), with no complaint' '
	rec_prog "$T/pattach" step &&
	check_status rec.status 1 &&
	! test -s rec.err
'
test_expect_success 'that trace replays' '
	run_tool replay "$trace" >/dev/null 2>rp.err
	not_signalled $?
'
test_expect_success 'PTRACE_TRACEME of the program'"'"'s first process: refused, named' '
	rec_prog "$T/forker" ptrace &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program made syscall ptrace \(101\) with PTRACE_TRACEME with its parent outside the recorded tree, which rewind cannot record yet; the trace .* ends before it$"
'
test_done
