#!/bin/bash
# t9003-tseek-gdb.sh: gdbstub -g N starts at the nearest tseek checkpoint
# and shows event N with the registers it showed without the index.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines
require_gdb

# at N TRACE: gdb's rip and monitor when at gdbstub -g N.
at () {
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | $REWIND_BIN/gdbstub -g $1 $2" \
		-ex "info registers rip" -ex "monitor when" "$T/lines" 2>&1 |
		grep -E "^(rip |Current event)"
}

test_expect_success 'record lines 20; pick two writes' '
	differs_natively "$T/lines" 20 &&
	rec_replay_cmp "$T/lines" 20 &&
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump | sed -n "9p;18p" >evs &&
	for n in $(cat evs); do
		at $n "$trace" >before.$n &&
		grep -qx "Current event: $n" before.$n &&
		grep -q "^rip " before.$n || return 1
	done
'
test_expect_success 'with an index: the same event and rip' '
	run_tool tseek --every 4 "$trace" &&
	for n in $(cat evs); do
		at $n "$trace" >after.$n &&
		test_cmp_bytes before.$n after.$n || return 1
	done
'
test_expect_success 'gdbstub said nothing about the index' '
	n=$(head -n 1 evs) &&
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" -ex "target remote | $REWIND_BIN/gdbstub -g $n $trace" \
		-ex "monitor when" "$T/lines" >g.out 2>&1 &&
	! grep -q "replaying from the start" g.out
'
test_done
