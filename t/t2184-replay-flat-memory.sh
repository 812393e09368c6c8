#!/bin/bash
# t2184-replay-flat-memory.sh: replay keeps the memory blocks of the
# preemptions it passed in a compressed spill file, not in its own
# memory, so its peak (VmHWM, read when the program's final output
# arrives: every preemption is behind it) does not grow with the number
# of preemptions, whether a helper thread writes the file (the default)
# or replay itself (REWIND_NO_SPILL_THREAD=1); with REWIND_NO_SPILL=1
# (the fallback) it does, and all replay byte for byte. (The timer's
# signals preempt where they come: REWIND_HOLD_SIGNALS=0, else each
# would wait 0.1 s.)
. "$(dirname "$0")/test-lib.sh"
# The uncounted way's own test: what it checks is memory kept at
# preemptions, which counting does not keep (make check's default pass).
export REWIND_NO_COUNT=1
require_tprog preempts
command -v python3 >/dev/null || skip_all "no python3"

# peak TRACE: replay TRACE, its output into replay.out; prints replay's
# own VmHWM in KiB as the program's output begins.
peak () {
	python3 - "$REWIND_BIN/replay" "$1" <<-'PY'
	import subprocess, sys
	p = subprocess.Popen([sys.argv[1], sys.argv[2]], stdout=subprocess.PIPE)
	first = p.stdout.read(1)
	hwm = [l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmHWM:")]
	out = first + p.stdout.read()
	open("replay.out", "wb").write(out)
	sys.exit(p.wait() or print(hwm[0].split()[1]))
	PY
}

test_expect_success 'record 10 and 40 preemptions of 2 MiB each; replay matches' '
	differs_natively "$T/preempts" 2 &&
	export REWIND_HOLD_SIGNALS=0 &&
	rec_replay_cmp "$T/preempts" 10 && cp "$trace" -r t10 && cp rec.out out10 &&
	rec_replay_cmp "$T/preempts" 40 && cp "$trace" -r t40 && cp rec.out out40 &&
	test "$(run_tool tdump t40 | grep -c " preempt at ")" -ge 40
'
test_expect_success 'spilled: the peak does not grow with the preemptions' '
	a=$(REWIND_NO_SPILL=0 peak t10) && test_cmp_bytes out10 replay.out &&
	b=$(REWIND_NO_SPILL=0 peak t40) && test_cmp_bytes out40 replay.out &&
	echo "replay peak: $a KiB for 10 preemptions, $b KiB for 40" &&
	test $((b - a)) -lt $((16 * 1024))
'
test_expect_success 'REWIND_NO_SPILL_THREAD=1: spilled in line, flat too, replay matches' '
	a=$(REWIND_NO_SPILL=0 REWIND_NO_SPILL_THREAD=1 peak t10) && test_cmp_bytes out10 replay.out &&
	b=$(REWIND_NO_SPILL=0 REWIND_NO_SPILL_THREAD=1 peak t40) && test_cmp_bytes out40 replay.out &&
	echo "replay peak: $a KiB for 10 preemptions, $b KiB for 40" &&
	test $((b - a)) -lt $((16 * 1024))
'
test_expect_success 'REWIND_NO_SPILL=1: the blocks are held (60 MiB more), replay matches' '
	a=$(REWIND_NO_SPILL=1 peak t10) && test_cmp_bytes out10 replay.out &&
	b=$(REWIND_NO_SPILL=1 peak t40) && test_cmp_bytes out40 replay.out &&
	echo "replay peak: $a KiB for 10 preemptions, $b KiB for 40" &&
	test $((b - a)) -gt $((48 * 1024))
'
test_done
