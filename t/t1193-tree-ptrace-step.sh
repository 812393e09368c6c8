#!/bin/bash
# t1193-tree-ptrace-step.sh: a tracer that works as a debugger does:
# PTRACE_SINGLESTEP, breakpoints planted with POKETEXT or through
# /proc/PID/mem and stepped over, data written with process_vm_writev,
# a call's result changed at its exit stop, a call changed or skipped
# at its entry stop;
# under rec as natively, and the trace replays byte for byte.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptbreak

test_expect_success 'PTRACE_SINGLESTEP 300 times, each a TRAP_TRACE' '
	native_cmp "$T/ptbreak" step &&
	grep -qx "tracer: 300 steps, 300 of them TRAP_TRACE" rec.out &&
	grep -qx "tracer: child exited 4" rec.out &&
	step_trace=$trace
'
test_expect_success 'a breakpoint planted with POKETEXT, hit and stepped over 3 times' '
	native_cmp "$T/ptbreak" poke &&
	grep -qx "tracer: hit 2 at target: yes, argument 2" rec.out &&
	grep -qx "child: called target 2, acc 1026" rec.out
'
test_expect_success 'the same through /proc/PID/mem' '
	native_cmp "$T/ptbreak" mem &&
	grep -qx "tracer: hit 2 at target: yes, argument 2" rec.out &&
	grep -qx "tracer: child exited 4" rec.out
'
test_expect_success 'data written with process_vm_writev and /proc/PID/mem' '
	native_cmp "$T/ptbreak" vmwrite &&
	grep -qx "child: work -8907158989468373450, flag 42" rec.out &&
	grep -qx "child: called target 0, acc 197" rec.out
'
test_expect_success 'a result and data changed at a call.s exit stop' '
	native_cmp "$T/ptbreak" retval &&
	grep -qx "child: getppid returned 12345 (ok), flag 7" rec.out
'
test_expect_success 'a call skipped at its entry stop, its result given at its exit' '
	native_cmp "$T/ptbreak" skip &&
	grep -qx "tracer: exit of call -1, result -38" rec.out &&
	grep -qx "child: getppid returned -1 (Operation not permitted), flag 1" rec.out
'
test_expect_success 'a call changed into another at its entry stop' '
	native_cmp "$T/ptbreak" change &&
	grep -qx "tracer: exit of call 102, result $(id -u)" rec.out
'
test_expect_success 'the state the steps reached is recorded, not stepped again' '
	run_tool tdump "$step_trace" >dump &&
	grep -q "preempt at .*not re-executed" dump
'
test_done
