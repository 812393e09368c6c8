#!/bin/bash
# t7004-tpack-cpu.sh: replay on a CPU lacking a feature of the trace's cpu
# file (faked by setting a bit) is refused naming it, unless --force; a
# corrupt cpu file is refused; a trace without one is refused unless
# --force, and tpack adds it.
. "$(dirname "$0")/test-lib.sh"
require_tprog random
# The feature file alone: a counted trace keeps its CPU's whole table
# there (t2216-count-cpuid-table.sh), and traces from before the cpu file
# were never counted.
export REWIND_NO_COUNT=1

# fresh_copy NAME: a copy of the recorded trace to spoil.
fresh_copy () {
	rm -rf "$1" && cp -a "$trace" "$1"
}
# refused TRACE PATTERN: replay of TRACE fails with 125 and one line.
refused () {
	run_tool replay "$1" >out 2>err
	local st=$?
	expect_status $st 125 && one_line_error err "$2" && test ! -s out
}

test_expect_success 'output differs between native runs' '
	differs_natively "$T/random"
'
test_expect_success 'rec writes a cpu file' '
	rec_replay_cmp "$T/random" &&
	test "$(head -c 8 "$trace/cpu")" = RWNDCPUD &&
	test "$(get_u32 "$trace/cpu" 8)" = 3 &&
	n=$(get_u32 "$trace/cpu" 12) &&
	test "$(stat -c %s "$trace/cpu")" = $((32 + 24 * n + 8)) &&
	test "$(get_u32 "$trace/cpu" 28)" = 0 &&
	cpu_entry "$trace/cpu" 7 0 >/dev/null
'
test_expect_success PYTHON 'a CPU lacking a recorded feature is refused, naming it' '
	fresh_copy lacks && c=lacks/cpu &&
	off=$(cpu_entry $c 7 0) && ebx=$(get_u32 $c $((off + 12))) && name= &&
	for pair in 27:avx512er 26:avx512pf 16:avx512f 17:avx512dq 30:avx512bw 29:sha_ni 5:avx2 3:bmi1; do
		bit=${pair%%:*}
		if [ $((ebx >> bit & 1)) = 0 ]; then
			name=${pair#*:}
			break
		fi
	done &&
	test -n "$name" &&
	put_u32 $c $((off + 12)) $((ebx | 1 << bit)) && cpu_resum $c &&
	refused lacks "^replay: this CPU lacks $name, which the recording CPU had; replay may diverge \(use --force to try anyway\)$"
'
test_expect_success PYTHON 'replay --force replays it anyway, with one warning' '
	run_tool replay --force lacks >out 2>err &&
	test_cmp_bytes rec.out out &&
	head -n 1 err >warning &&
	grep -q "^replay: this CPU lacks $name, which the recording CPU had; replaying anyway (--force)$" warning &&
	tail -n +2 err >rest &&
	test_cmp_bytes rec.err rest
'
test_expect_success PYTHON 'an unnamed bit is named by leaf, register and bit' '
	fresh_copy unnamed && c=unnamed/cpu &&
	off=$(cpu_entry $c 7 0) && ebx=$(get_u32 $c $((off + 12))) && bit= &&
	for b in 22 12 13 15; do
		if [ $((ebx >> b & 1)) = 0 ]; then
			bit=$b
			break
		fi
	done &&
	test -n "$bit" &&
	put_u32 $c $((off + 12)) $((ebx | 1 << bit)) && cpu_resum $c &&
	refused unnamed "^replay: this CPU lacks cpuid leaf 7 ebx bit $bit, which the recording CPU had"
'
test_expect_success PYTHON 'a missing XSAVE state component is refused' '
	fresh_copy xcr0 && c=xcr0/cpu &&
	x=$(get_u32 $c 16) && bit= &&
	for b in 7 19 18 10; do
		if [ $((x >> b & 1)) = 0 ]; then
			bit=$b
			break
		fi
	done &&
	test -n "$bit" &&
	put_u32 $c 16 $((x | 1 << bit)) && cpu_resum $c &&
	refused xcr0 "^replay: this CPU lacks XSAVE state component $bit \((avx512 hi16_zmm|apx|amx tiledata|unnamed)\), which the recording CPU had"
'
# Needs AVX enabled, so that XSAVE component 2 has a layout to compare.
grep -qw avx /proc/cpuinfo && test_set_prereq AVX
test_have_prereq PYTHON && test_have_prereq AVX && test_set_prereq PYTHON_AVX
test_expect_success PYTHON_AVX 'a different XSAVE layout is refused' '
	fresh_copy layout && c=layout/cpu &&
	off=$(cpu_entry $c 13 2) &&
	o=$(get_u32 $c $((off + 12))) &&
	put_u32 $c $((off + 12)) $((o + 64)) && cpu_resum $c &&
	refused layout "^replay: this CPU.s XSAVE layout differs for state component 2 \(avx\): [0-9]+ bytes at offset $o here, [0-9]+ bytes at offset $((o + 64)) on the recording CPU; replay may diverge"
'
test_expect_success 'a cpu file with a bad magic is refused by name' '
	fresh_copy magic && flip_byte magic/cpu 0 &&
	refused magic "^replay: magic/cpu: not a rewind cpu file \(bad magic\)$"
'
test_expect_success 'a short cpu file is refused by name' '
	fresh_copy short && head -c 40 "$trace/cpu" >short/cpu &&
	refused short "^replay: short/cpu: truncated: 40 bytes" &&
	head -c 10 "$trace/cpu" >short/cpu &&
	refused short "^replay: short/cpu: truncated: 10 bytes"
'
test_expect_success PYTHON 'a cpu file of a newer version is refused by name, even with --force' '
	fresh_copy newer && put_u32 newer/cpu 8 4 && cpu_resum newer/cpu &&
	refused newer "^replay: newer/cpu: cpu file version 4 is newer than this tool.s version 3$" &&
	run_tool replay --force newer >out 2>err
	st=$? &&
	expect_status $st 125
'
test_expect_success 'a trace without a cpu file (older rec) is refused' '
	fresh_copy old && rm old/cpu &&
	refused old "^replay: old/cpu: missing: nothing to check this CPU against \(run tpack on the recording machine to add it, or use --force to try anyway\)$"
'
test_expect_success 'replay --force replays it anyway, with one warning' '
	run_tool replay --force old >out 2>err &&
	test_cmp_bytes rec.out out &&
	head -n 1 err >warning &&
	grep -q "^replay: old/cpu: missing: this CPU is unchecked; replaying anyway (--force)$" warning &&
	tail -n +2 err >rest &&
	test_cmp_bytes rec.err rest
'
test_expect_success 'and tpack gives it one' '
	run_tool tpack old >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: added the cpu file " pack.out &&
	test "$(head -c 8 old/cpu)" = RWNDCPUD &&
	replay_cmp "$scratch/old" &&
	run_tool tpack old >pack.out &&
	grep -qx "tpack: nothing to add" pack.out
'
test_expect_success PYTHON 'tpack keeps an existing cpu file' '
	run_tool tpack lacks >pack.out 2>pack.err &&
	refused lacks "this CPU lacks $name"
'
test_done
