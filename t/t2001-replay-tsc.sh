#!/bin/bash
# t2001-replay-tsc.sh: rdtsc and rdtscp (inline asm) replay to the recorded
# counter values, both ways rewind makes them stop: the kernel's trap and
# patched code (REWIND_NO_TSC_TRAP=1), and across, a trace made one way
# replayed on a machine of the other kind.
. "$(dirname "$0")/test-lib.sh"
require_tprog tsc

REWIND_NO_TSC_TRAP=0 rec --probe | grep -q '^rdtsc trap: present' && test_set_prereq TSC_TRAP

test_expect_success 'output differs between native runs' '
	differs_natively "$T/tsc"
'

# no_trap WAY: what REWIND_NO_TSC_TRAP is for that way.
no_trap () {
	if [ "$1" = patch ]; then echo 1; else echo 0; fi
}

for way in trap patch; do
	prereq=
	[ $way = trap ] && prereq=TSC_TRAP
	test_expect_success $prereq "$way: replay writes the recorded bytes and status" '
		export REWIND_NO_TSC_TRAP=$(no_trap $way) &&
		rec_replay_cmp "$T/tsc" &&
		rm -rf $way.trace && cp -r "$trace" $way.trace &&
		cp rec.out $way.out && cp rec.err $way.err && cp rec.status $way.status
	'
	test_expect_success $prereq "$way: every rdtsc and rdtscp of main is in the trace" '
		tdump $way.trace >dump &&
		test "$(grep -c " rdtscp " dump)" -ge 5 &&
		test "$(grep -c " rdtsc " dump)" -ge 6 &&
		if [ $way = patch ]; then grep -q "^0 .* rdtsc=patched" dump
		else ! grep -q "rdtsc=" dump; fi
	'
	test_expect_success $prereq "$way: a second replay is identical too" '
		export REWIND_NO_TSC_TRAP=$(no_trap $way) &&
		cp $way.out rec.out && cp $way.err rec.err && cp $way.status rec.status &&
		replay_cmp "$scratch/$way.trace"
	'
done

test_expect_success TSC_TRAP 'recorded with the trap, replayed patched' '
	export REWIND_NO_TSC_TRAP=1 &&
	cp trap.out rec.out && cp trap.err rec.err && cp trap.status rec.status &&
	replay_cmp "$scratch/trap.trace"
'
test_expect_success TSC_TRAP 'recorded patched, replayed where the trap works (patched, trap armed)' '
	export REWIND_NO_TSC_TRAP=0 &&
	cp patch.out rec.out && cp patch.err rec.err && cp patch.status rec.status &&
	replay_cmp "$scratch/patch.trace"
'
test_done
