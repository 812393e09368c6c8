#!/bin/bash
# t2025-replay-cpuid-gdb.sh: a replay whose CPUID faulted, in gdb and from
# tseek's checkpoints: gdb sees 0f a2, steps over a CPUID to the recorded
# answer and back, and continues across them to the end; replay --to N
# from a checkpoint meets each later CPUID with the same registers.
. "$(dirname "$0")/test-lib.sh"
require_tprog cpuid
require_gdb
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

REWIND_NO_CPUID_FAULT=0 rec --probe | grep -q '^cpuid faulting: present' ||
	skip_all "no CPUID faulting here (rec --probe)"
export REWIND_NO_CPUID_FAULT=0 REWIND_CPUID_FAULT=1

# stop_part FILE: replay --to's own lines (from a checkpoint, the output
# before it is not written again).
stop_part () { sed -n '/^-- stopped after event /,$p' "$1"; }

test_expect_success 'record cpuid; replay matches' '
	rec_replay_cmp "$T/cpuid" &&
	tdump "$trace" >dump &&
	main=$(grep -m1 " cpuid .* at 0x5" dump) &&
	at=$(echo "$main" | awk "{ print \$NF }") &&
	for r in eax ebx ecx edx; do
		echo "$main" | sed -n "s/.* $r=\(0x[0-9a-f]*\) .*/\1/p"
	done >want &&
	test $(wc -l <want) = 4
'
test_expect_success 'gdb shows 0f a2, steps to the recorded answer and back, and continues' '
	cat >cpuid.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	break *$at
	continue
	echo @@ at\n
	x/2xb \$pc
	print/x \$pc
	stepi
	echo @@ after\n
	print/x \$eax
	print/x \$ebx
	print/x \$ecx
	print/x \$edx
	echo @@ upper\n
	print/x \$rax >> 32
	print/x \$rdx >> 32
	reverse-stepi
	echo @@ back\n
	print/x \$pc
	delete
	continue
	END
	gdb_run "$T/cpuid" cpuid.gdb
	not_signalled $? &&
	gdb_section at | grep -E "^$at( <[^>]*>)?:\s+0x0f\s+0xa2$" &&
	test "$(gdb_values at)" = "$at" &&
	gdb_values after >got && test_cmp_bytes want got &&
	test "$(gdb_values upper | tr "\n" " ")" = "0x0 0x0 " &&
	test "$(gdb_values back)" = "$at" &&
	grep -q "^No more reverse-execution history" gdb.out &&
	! grep -i divergence gdb.out
'
test_expect_success 'gdb continues across every CPUID to the end' '
	gdb_cmp "$T/cpuid"
'
test_expect_success 'tseek makes checkpoints among the CPUID events' '
	awk "\$3 == \"cpuid\" { print \$1 }" dump >evs &&
	test $(wc -l <evs) -ge 10 &&
	sed -n "1~8p" evs >some && tail -n 3 evs >>some &&
	for n in $(sort -nu some); do
		run_tool replay --to $n "$trace" >before.$n 2>&1 || bad=1
	done &&
	test -z "$bad" &&
	run_tool tseek --quiet --every 2 "$trace" >ts.out 2>ts.err &&
	test ! -s ts.err &&
	run_tool tseek --list "$trace" >list &&
	first=$(head -n 1 evs) &&
	test -n "$(awk -v f=$first "NR > 1 && \$1 > f" list)"
'
test_expect_success 'replay --to N from a checkpoint: same event and registers' '
	for n in $(sort -nu some); do
		run_tool replay --to $n "$trace" >after.$n 2>&1 &&
		stop_part before.$n >b && stop_part after.$n >a &&
		grep -q "^rbx " a && test_cmp_bytes b a || bad=1
	done &&
	test -z "$bad" &&
	replay_cmp
'
test_done
