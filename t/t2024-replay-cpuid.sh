#!/bin/bash
# t2024-replay-cpuid.sh: CPUID faults under rec where the CPU can
# (arch_prctl ARCH_SET_CPUID): each one is in the trace with the answer the
# program saw, the per-CPU APIC ids zeroed, and replay gives the same
# answers back; after an execve, in threads and beside the program's own
# SIGSEGV handler too. rec makes CPUID fault where it counts progress
# on several CPUs (REWIND_NO_PIN=1) or REWIND_CPUID_FAULT=1
# asks, else not (a stop each);
# REWIND_NO_CPUID_FAULT=1 keeps CPUID native, and a faulted trace is
# refused where CPUID cannot fault.
. "$(dirname "$0")/test-lib.sh"
require_tprog cpuid

REWIND_NO_CPUID_FAULT=0 rec --probe | grep -q '^cpuid faulting: present' ||
	skip_all "no CPUID faulting here (rec --probe)"
export REWIND_NO_CPUID_FAULT=0 REWIND_CPUID_FAULT=1

# cpuid_lines FILE: the program's own CPUID lines.
cpuid_lines () { grep "^cpuid " "$1"; }

test_expect_success 'output differs between native runs' '
	differs_natively "$T/cpuid"
'
test_expect_success 'rec and replay write the same bytes and status' '
	rec_replay_cmp "$T/cpuid" &&
	cp -r "$trace" fault.trace && cp rec.out fault.out &&
	test "$(cpuid_lines rec.out | wc -l)" -ge 2
'
test_expect_success 'tdump shows each CPUID of main with the answer the program printed' '
	tdump fault.trace >dump &&
	grep -q "^0 .* start .* cpuid=faulted$" dump &&
	cpuid_lines fault.out >want &&
	while read -r line; do
		grep -qF " $line at 0x5" dump || { echo "not in the trace: $line"; bad=1; }
	done <want &&
	test -z "$bad" &&
	test "$(grep -c " cpuid 0x0/" dump)" -ge 2
'
test_expect_success 'and in --json' '
	tdump --json fault.trace >dump.json &&
	grep -q "\"kind\":\"start\".*\"cpuid\":\"faulted\"" dump.json &&
	grep "\"kind\":\"cpuid\"" dump.json | grep -q "\"leaf\":1,\"subleaf\":0,\"eax\":[0-9]*,\"ebx\":[0-9]*,\"ecx\":[0-9]*,\"edx\":[0-9]*,\"rip\":[0-9]*"
'
test_expect_success 'a second replay is identical too' '
	cp fault.out rec.out &&
	replay_cmp "$scratch/fault.trace"
'
# The APIC ids differ from CPU to CPU: rec zeroes them. On a CPU whose
# own id is not 0 that shows.
for c in $(seq 0 $(($(nproc) - 1))); do
	taskset -c $c "$T/cpuid" apic 2>/dev/null | grep -qv "^apic 0 x2apic 0$" &&
		{ nonzero=$c; test_set_prereq APIC_NONZERO; break; }
done
test_expect_success APIC_NONZERO 'the program sees APIC id 0 on a CPU whose id is not' '
	taskset -c $nonzero "$T/cpuid" apic >native &&
	! grep -qx "apic 0 x2apic 0" native &&
	taskset -c $nonzero rec -o apic.trace "$T/cpuid" apic >out 2>/dev/null &&
	grep -qx "apic 0 x2apic 0" out &&
	replay apic.trace >out2 2>/dev/null &&
	test_cmp_bytes out out2
'
test_expect_success 'a faulted trace is refused in one line where CPUID does not fault' '
	REWIND_NO_CPUID_FAULT=1 run_tool replay fault.trace >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*/events: recorded with CPUID faulting, which this machine lacks" &&
	! test -s out
'
# Natively the APIC ids differ from CPU to CPU, and rec and replay may run
# on different ones: the vendor leaf alone is the same everywhere.
test_expect_success 'REWIND_NO_CPUID_FAULT=1: CPUID native, none in the trace, replay the same' '
	REWIND_NO_CPUID_FAULT=1 rec_replay_cmp "$T/cpuid" vendor &&
	grep -q "^cpuid 0x0/0x0 = " rec.out &&
	tdump "$trace" >dump &&
	! grep -q " cpuid " dump &&
	! grep -q "cpuid=faulted" dump
'
test_expect_success 'neither counted nor asked for: CPUID native, none in the trace' '
	REWIND_CPUID_FAULT= REWIND_NO_COUNT=1 rec_replay_cmp "$T/cpuid" vendor &&
	tdump "$trace" >dump &&
	! grep -q " cpuid " dump &&
	! grep -q "cpuid=faulted" dump
'
test_expect_success 'counted and REWIND_CPUID_FAULT=1: CPUID faults, each answer in the trace' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/cpuid" vendor &&
	tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9].* cpuid=faulted$" dump &&
	grep -q " cpuid 0x0/0x0 = " dump
'
# Counted without REWIND_CPUID_FAULT, the answers are the cpu file's
# table (t2216-count-cpuid-table.sh); with REWIND_NO_PIN=1 the threads may
# run on any CPU, and CPUID faults as asked above.
[ "$(nproc)" -ge 2 ] && test_set_prereq MULTICPU
test_expect_success MULTICPU 'counted, REWIND_NO_PIN=1: CPUID faults without being asked' '
	REWIND_CPUID_FAULT= REWIND_NO_COUNT= REWIND_NO_PIN=1 \
		rec_replay_cmp "$T/cpuid" vendor &&
	tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9].* cpuid=faulted$" dump &&
	grep -q " cpuid 0x0/0x0 = " dump
'
test_expect_success 'CPUID beside a SIGSEGV handler of the program: the handler sees its own fault only' '
	rec_replay_cmp "$T/cpuid" handler &&
	grep -qx "handler ran 1 times" rec.out &&
	tdump "$trace" >dump &&
	test "$(grep -c " signal SIGSEGV" dump)" = 1 &&
	test "$(grep -c " cpuid .* at 0x5" dump)" -ge 6
'
test_expect_success 'CPUID in two threads' '
	rec_replay_cmp "$T/cpuid" threads &&
	tdump "$trace" >dump &&
	awk "\$3 == \"cpuid\" && \$NF ~ /^0x5/ { print \$2 }" dump | sort -u >tids &&
	test "$(wc -l <tids)" = 2
'
test_expect_success 'CPUID faults again after an execve' '
	rec_replay_cmp "$T/cpuid" exec &&
	tdump "$trace" >dump &&
	last=$(awk "\$3 == \"syscall\" && \$4 ~ /^execve/ { n = \$1 } END { print n }" dump) &&
	test "$(grep -c " syscall execve" dump)" = 2 &&
	awk -v l=$last "\$1 > l && \$3 == \"cpuid\" && \$4 ~ /^0x1\\// && \$NF ~ /^0x5/" dump | grep -q . &&
	test "$(cpuid_lines rec.out | wc -l)" -ge 3
'
test_expect_success 'a program that sets CPUID faulting itself stops rec in one line' '
	rec_prog "$T/cpuid" set &&
	expect_status $(cat rec.status) 125 &&
	one_line_error rec.err "^rec: the program set CPUID faulting itself \(arch_prctl ARCH_SET_CPUID\)"
'
test_expect_success 'and REWIND_NO_CPUID_FAULT=1 records it' '
	REWIND_NO_CPUID_FAULT=1 rec_replay_cmp "$T/cpuid" set
'
test_expect_success 'sh -c: the shell and the program it starts' '
	rec_replay_cmp sh -c "\"$T/cpuid\"; echo \$\$" &&
	test "$(tdump "$trace" | grep -c " cpuid ")" -ge 10
'
test_expect_success PYTHON 'python3' '
	rec_replay_cmp python3 -c "import os, random; print(os.getpid(), random.random())" &&
	tdump "$trace" | grep -q " cpuid "
'
test_done
