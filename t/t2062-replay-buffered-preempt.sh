#!/bin/bash
# t2062-replay-buffered-preempt.sh: a preemption at any instruction of the
# buffering library's can(), where a call is decided untraced or traced,
# replays. rec forces one there with a hardware breakpoint
# (REWIND_BUF_PREEMPT), the first time the instruction runs. A decision
# can() had made from rec's header before such a preemption was resumed
# by replay into the recording path, which logged an entry into replay's
# buffer and answered the next call from it: a call more than rec made
# (bufcalls sig failed so about once in 100 runs under load). Since
# 2026-11-29 rec preempts no thread inside a call into the library (its
# header's lib_sp; t1199): each forced preemption goes on, none is
# recorded in can(), and every recording replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog bufcalls
for v in REWIND_NO_BUFFER REWIND_NO_DEBUGREGS; do
	eval "val=\${$v:-}"
	[ -n "$val" ] && [ "$val" != 0 ] && skip_all "$v is set"
done
lib=$REWIND_BIN/librewind-buf.so
[ -f "$lib" ] || skip_all 'no librewind-buf.so: no syscall buffering'
run_tool rec --probe 2>&1 | grep -q '^debug registers: present' ||
	skip_all 'no debug registers (rec --probe)'
command -v objdump >/dev/null 2>&1 || skip_all 'no objdump'
# At the instruction itself: a counted thread would run on to its next
# counted edge first (rec/advance.h).
export REWIND_NO_COUNT=1

# The offsets of can()'s instructions in the library, as objdump shows them.
objdump -d --no-show-raw-insn "$lib" | awk '/^[0-9a-f]+ <can>:$/,/^$/' |
	sed -n 's/^ *\([0-9a-f]*\):.*/\1/p' >offs

# forced MODE: records bufcalls MODE with a preemption forced at each
# instruction of can() in turn, replays each trace and compares; counts
# in $hit the traces with a preemption record at that instruction.
forced () {
	hit=0
	local off base at
	for off in $(cat offs); do
		REWIND_BUF_PREEMPT=0x$off rec_replay_cmp "$T/bufcalls" $1 || {
			echo "with the preemption forced at can()'s 0x$off"
			return 1
		}
		base=$(run_tool tdump "$trace" |
			sed -n 's/.* = \(0x[0-9a-f]*\) file="[^"]*\/librewind-buf\.so" .* offset=0$/\1/p' | head -n 1)
		test -n "$base" || { echo "no mapping of the library in $trace"; return 1; }
		at=$(printf '0x%x' $((base + 0x$off)))
		if run_tool tdump "$trace" | grep -q "^[0-9]* [0-9]* preempt at $at "; then
			hit=$((hit + 1))
		fi
		rm -rf "$trace"
	done
	echo "preempted at $hit of $(wc -l <offs) instructions"
}

test_expect_success 'can() is in the library' '
	test $(wc -l <offs) -ge 8
'
test_expect_success 'file, stat and clock calls: a preemption forced at each instruction of can() is not taken there, and replays' '
	forced "" &&
	test $hit -eq 0
'
test_expect_success 'the same with a 2 ms timer'"'"'s signals about (the case seen failing)' '
	forced sig &&
	test $hit -eq 0
'
test_done
