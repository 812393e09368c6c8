#!/bin/bash
# t2001-replay-tsc.sh: rdtsc and rdtscp (inline asm) replay to the recorded
# counter values, both ways rewind makes them stop: the kernel's trap and
# patched code (REWIND_NO_TSC_TRAP=1), and across, a trace made one way
# replayed on a machine of the other kind. With the trap, rec's and
# replay's own thread trap rdtsc too (tscshare.c) unless
# REWIND_NO_TSC_SHARE=1: both are run, and the values rec reads through
# its handler must be the counter's own.
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
# no_share WAY: what REWIND_NO_TSC_SHARE is for that way.
no_share () {
	if [ "$1" = trap-own ]; then echo 1; else echo 0; fi
}

# Where the kernel keeps time by the counter it is the same on every CPU.
grep -qx tsc /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null &&
	test_set_prereq TSC_CLOCK
test_have_prereq TSC_TRAP && test_have_prereq TSC_CLOCK && test_set_prereq TSC_TRAP_CLOCK

for way in trap trap-own patch; do
	prereq= clock=TSC_CLOCK
	[ $way != patch ] && prereq=TSC_TRAP clock=TSC_TRAP_CLOCK
	test_expect_success $prereq "$way: replay writes the recorded bytes and status" '
		export REWIND_NO_TSC_TRAP=$(no_trap $way) REWIND_NO_TSC_SHARE=$(no_share $way) &&
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
	test_expect_success $clock "$way: the values rec gave are the counter read in between" '
		export REWIND_NO_TSC_TRAP=$(no_trap $way) REWIND_NO_TSC_SHARE=$(no_share $way) &&
		"$T/tsc" >before && rec_prog "$T/tsc" && "$T/tsc" >after &&
		{ tail -n 1 before; cat rec.out; head -n 1 after; } |
		awk "{ print \$3; print \$5 }" >values &&
		test "$(wc -l <values)" = 14 &&
		sort -c -n values
	'
	test_expect_success $prereq "$way: a second replay is identical too" '
		export REWIND_NO_TSC_TRAP=$(no_trap $way) REWIND_NO_TSC_SHARE=$(no_share $way) &&
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
test_have_prereq PYTHON && command -v zstd >/dev/null && test_set_prereq PYTHON_ZSTD
test_expect_success PYTHON_ZSTD 'a trace made with an unknown way of stopping rdtsc is refused in one line' '
	rm -rf odd.trace && cp -r patch.trace odd.trace &&
	python3 - odd.trace/events <<-\EOF &&
	import struct, subprocess, sys
	f = open(sys.argv[1], "rb").read()
	csize, rsize = struct.unpack_from("<II", f, 16 + 4)
	raw = bytearray(subprocess.run(["zstd", "-dc"], input=f[40:40 + csize],
	                               capture_output=True, check=True).stdout)
	struct.pack_into("<I", raw, 24 + 12, 7)  # the start record: u32 way
	open("raw", "wb").write(raw)  # from a file, zstd writes the frame size
	z = subprocess.run(["zstd", "-qcf", "raw"], capture_output=True, check=True).stdout
	hdr = bytearray(f[16:40])
	struct.pack_into("<I", hdr, 4, len(z))
	open(sys.argv[1], "wb").write(f[:16] + hdr + z + f[40 + csize:])
	EOF
	tdump odd.trace | head -n 1 | grep -q " rdtsc=unknown$" &&
	run_tool replay odd.trace >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*/events: recorded with an unknown way of stopping rdtsc \(7\); this replay is too old for it$"
'
test_done
