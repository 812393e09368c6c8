#!/bin/bash
# t2216-count-cpuid-table.sh: counted with every thread
# on one CPU, CPUID runs unfaulted and the cpu file keeps that CPU's every
# answer (version 3, whole; the start says cpuid=table). replay runs where
# rec ran and gives the same bytes; where its CPU answers otherwise (a
# changed table, or REWIND_CPUID_TABLE_FAULT=1) CPUID faults and gets the
# table's answers, and without CPUID faulting that is refused in one line.
# With CPUID faulting, a thread that leaves rec's CPU (sched_setaffinity,
# or taskset before an execve) gets the table's answers too, and
# ARCH_GET_CPUID says CPUID does not fault.
. "$(dirname "$0")/test-lib.sh"
require_tprog cpuid
unset REWIND_NO_COUNT REWIND_CPUID_FAULT REWIND_NO_PIN REWIND_CPUID_TABLE_FAULT

# CPUID faulting, unless the machine lacks it or REWIND_NO_CPUID_FAULT=1
# (make check's fallback pass) turns it off.
rec --probe | grep -q '^cpuid faulting: present' && test_set_prereq FAULT
[ "$(nproc)" -ge 2 ] && test_have_prereq FAULT && test_set_prereq MOVE

# both_ways: replay $trace as is, then with CPUID made to fault (where it
# can), and compare each with rec.out.
both_ways () {
	replay_cmp || return 1
	if test_have_prereq FAULT; then
		REWIND_CPUID_TABLE_FAULT=1 replay_cmp || return 1
	fi
}

test_expect_success 'output differs between native runs' '
	differs_natively "$T/cpuid"
'
test_expect_success 'counted: CPUID native, the cpu file holds the whole table' '
	rec_replay_cmp "$T/cpuid" &&
	cp -r "$trace" table.trace && cp rec.out table.out &&
	tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9].* cpuid=table$" dump &&
	! grep -q " cpuid 0x" dump &&
	test "$(get_u32 "$trace/cpu" 8)" = 3 &&
	test "$(get_u32 "$trace/cpu" 28)" = 1 &&
	test "$(get_u32 "$trace/cpu" 12)" -gt 40 &&
	test "$(get_u32 "$trace/cpu" 24)" -lt "$(nproc --all)" &&
	tdump --json "$trace" | grep -q "\"kind\":\"start\".*\"cpuid\":\"table\""
'
test_expect_success FAULT 'REWIND_CPUID_TABLE_FAULT=1: CPUID faults in replay, the same bytes' '
	both_ways
'
test_expect_success PYTHON 'a table other than this CPU: replay gives the table its answers' '
	rm -rf other && cp -a table.trace other &&
	off=$(cpu_entry other/cpu 0 0) &&
	put_u32 other/cpu $((off + 12)) 0x6b6e6f77 && cpu_resum other/cpu &&
	if test_have_prereq FAULT; then
		run_tool replay other >out 2>err
		expect_status $? 125 &&
		grep -q "^replay: divergence at event [0-9]*: " err
	fi &&
	REWIND_NO_CPUID_FAULT=1 run_tool replay other >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: this CPU answers CPUID otherwise than CPU [0-9]+ of the recording machine, where the program ran, and CPUID faulting"
'
test_expect_success PYTHON 'a cpu file without the whole table is refused in one line' '
	rm -rf part && cp -a table.trace part &&
	put_u32 part/cpu 28 0 && cpu_resum part/cpu &&
	run_tool replay part >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: part/cpu: not the whole table of the CPU the program ran on: the program.s CPUID answers were kept there \(use --force to try anyway\)$" &&
	run_tool replay --force part >out 2>err &&
	test_cmp_bytes table.out out &&
	test "$(grep -c "CPUID runs natively (--force)" err)" = 1
'
test_expect_success 'two threads, and an execve' '
	rec_replay_cmp "$T/cpuid" threads && both_ways &&
	rec_replay_cmp "$T/cpuid" exec && both_ways &&
	rec_replay_cmp "$T/cpuid" handler && both_ways &&
	grep -qx "handler ran 1 times" rec.out
'
test_expect_success MOVE 'a thread that moves to another CPU gets the table its answers' '
	rec_replay_cmp "$T/cpuid" move && both_ways &&
	grep -qx "arch_prctl(ARCH_GET_CPUID) = 1" rec.out &&
	tdump "$trace" >dump &&
	grep -q "sched_setaffinity(0, " dump &&
	! grep -q " cpuid 0x" dump
'
test_expect_success MOVE 'a thread another moves while it waits in a read: the same' '
	rec_replay_cmp "$T/cpuid" moved && both_ways &&
	test "$(grep -c "^cpuid 0x" rec.out)" -ge 2 &&
	tdump "$trace" >dump &&
	grep -q "sched_setaffinity([1-9][0-9]*, " dump &&
	! grep -q " cpuid 0x" dump
'
test_expect_success MOVE 'a thread another moves while it spins (preempted): the same' '
	rec_replay_cmp "$T/cpuid" movedspin && both_ways &&
	test "$(grep -c "^cpuid 0x" rec.out)" -ge 2
'
test_expect_success MOVE 'taskset before the execve: the same' '
	for c in 0 1; do
		rec_replay_cmp taskset -c $c "$T/cpuid" && both_ways || return 1
	done
'
# Leaves past every range answer zeros here (the probes the cpu file
# keeps say so); a subleaf past a leaf's last does everywhere.
"$T/cpuid" probe | grep "^cpuid 0x[48]" | grep -qv "eax=0x0 ebx=0x0 ecx=0x0 edx=0x0" ||
	test_set_prereq ZEROPROBE
test_expect_success ZEROPROBE 'leaves and subleaves past the table: zeros, as the CPU answers' '
	rec_replay_cmp "$T/cpuid" probe && both_ways &&
	test "$(grep -c "eax=0x0 ebx=0x0 ecx=0x0 edx=0x0" rec.out)" = 6
'
# In gdb, through the table's faults: a step over CPUID ends after it,
# with the table's answer, and reverse-stepi comes back to it.
command -v gdb >/dev/null 2>&1 && [ -x "$REWIND_BIN/gdbstub" ] && test_have_prereq FAULT &&
	test_set_prereq GDBFAULT
test_expect_success GDBFAULT 'gdb steps over a CPUID that faults for replay alone, and back' '
	sed -n "s/^cpuid 0x0\/0x0 = //p" table.out | tr " " "\n" | sed "s/^e..=//" >want &&
	test $(wc -l <want) = 4 &&
	cat >step.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $scratch/table.trace
	break show
	continue
	while *(unsigned short *)\$pc != 0xa20f
	stepi
	end
	set \$at = \$pc
	stepi
	echo @@ after\n
	print/x \$eax
	print/x \$ebx
	print/x \$ecx
	print/x \$edx
	echo @@ moved\n
	print \$pc - \$at
	reverse-stepi
	echo @@ back\n
	print \$pc == \$at
	delete
	continue
	END
	REWIND_CPUID_TABLE_FAULT=1 gdb_run "$T/cpuid" step.gdb
	not_signalled $? &&
	gdb_values after >got && test_cmp_bytes want got &&
	test "$(gdb_values moved)" = 2 &&
	test "$(gdb_values back)" = 1 &&
	grep -q "^No more reverse-execution history" gdb.out
'
test_expect_success PYTHON 'python3' '
	rec_replay_cmp python3 -c "import os, random; print(os.getpid(), random.random())" &&
	both_ways
'
test_done
