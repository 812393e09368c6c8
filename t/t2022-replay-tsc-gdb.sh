#!/bin/bash
# t2022-replay-tsc-gdb.sh: gdb on a replay of t/prog/tsc sees the program's
# own rdtsc and rdtscp bytes, also where rewind patched them
# (REWIND_NO_TSC_TRAP=1), and steps over them, forwards and back, to the
# recorded values.
. "$(dirname "$0")/test-lib.sh"
require_tprog tsc
require_gdb

REWIND_NO_TSC_TRAP=0 rec --probe | grep -q '^rdtsc trap: present' && test_set_prereq TSC_TRAP

for way in trap patch; do
	prereq=
	nt=1
	[ $way = trap ] && prereq=TSC_TRAP nt=0
	test_expect_success $prereq "$way: record tsc; replay matches" '
		export REWIND_NO_TSC_TRAP=$nt &&
		rec_replay_cmp "$T/tsc" &&
		tdump "$trace" >dump &&
		main=$(grep -m1 " rdtsc .* at 0x5" dump) &&
		tsc=$(echo "$main" | awk "{ print \$4 }") &&
		at=$(echo "$main" | awk "{ print \$6 }") &&
		atp=$(grep -m1 " rdtscp .* at 0x5" dump | awk "{ print \$7 }") &&
		test -n "$at" && test -n "$atp"
	'
	test_expect_success $prereq "$way: gdb shows 0f 31 and 0f 01 f9, and steps to the recorded value" '
		cat >tsc.gdb <<-END &&
		set pagination off
		target remote | $REWIND_BIN/gdbstub $trace
		echo @@ bytes\n
		x/2xb $at
		x/3xb $atp
		x/i $at
		break *$at
		continue
		echo @@ at\n
		x/2xb \$pc
		print/x \$pc
		stepi
		echo @@ after\n
		print/x \$rax
		print/x \$rdx
		reverse-stepi
		echo @@ back\n
		print/x \$pc
		END
		gdb_run "$T/tsc" tsc.gdb
		not_signalled $? &&
		gdb_section bytes >bytes &&
		grep -E "^$at( <[^>]*>)?:\s+0x0f\s+0x31$" bytes &&
		grep -E "^$atp( <[^>]*>)?:\s+0x0f\s+0x01\s+0xf9$" bytes &&
		grep -E "rdtsc$" bytes &&
		gdb_section at | grep -E "^$at( <[^>]*>)?:\s+0x0f\s+0x31$" &&
		test "$(gdb_values at)" = "$at" &&
		printf "0x%x\n0x%x\n" $((tsc & 0xffffffff)) $((tsc >> 32)) >want &&
		gdb_values after >got && test_cmp_bytes want got &&
		test "$(gdb_values back)" = "$at"
	'
done
test_done
