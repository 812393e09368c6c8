#!/bin/bash
# t4016-trace-stream-record.sh: a preemption record of 256 MiB (bigwrite.c
# writes that much fresh memory, then a timer's signal preempts it) is
# read, compressed and written in pieces, never held whole: rec's own
# peak (VmHWM) stays far below what the program wrote, with the helper
# thread and without, and replay matches byte for byte. On a full disk
# the streamed chunk fails like any other: one line, and a trace that
# ends at its last whole chunk. (REWIND_HOLD_SIGNALS=0: the signal
# preempts where it comes.)
. "$(dirname "$0")/test-lib.sh"
# The uncounted way's own test: what it checks is memory kept at
# preemptions, which counting does not keep (make check's default pass).
export REWIND_NO_COUNT=1
require_tprog bigwrite
command -v python3 >/dev/null || skip_all "no python3"
export REWIND_HOLD_SIGNALS=0

# peak TRACE ARGS...: rec -o TRACE -- ARGS, its output into rec.out and
# its status into rec.status; prints rec's own VmHWM in KiB as the
# program's output begins (the preemption is behind it by then).
peak () {
	python3 - "$REWIND_BIN/rec" "$@" <<-'PY'
	import subprocess, sys
	p = subprocess.Popen([sys.argv[1], "-o", sys.argv[2], "--"] + sys.argv[3:],
	                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
	first = p.stdout.read(1)
	hwm = [l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmHWM:")]
	open("rec.out", "wb").write(first + p.stdout.read())
	open("rec.status", "w").write("%d\n" % p.wait())
	print(hwm[0].split()[1])
	PY
}
: >rec.err
test_cleanup () {
	cd / && umount "$scratch/mnt" 2>/dev/null
	rm -rf "$scratch"
}

test_expect_success 'a 256 MiB preemption: rec stays below 128 MiB, replay matches' '
	k=$(peak "$scratch/tr" "$T/bigwrite" 256) &&
	echo "rec peak: $k KiB" &&
	check_status rec.status 0 &&
	run_tool tdump tr | grep -q " preempt at .* 26[0-9]* KiB of memory hashed" &&
	replay_cmp "$scratch/tr" &&
	test "$k" -lt $((128 * 1024))
'
test_expect_success 'the same written in line (REWIND_NO_TRACE_THREAD=1)' '
	k=$(REWIND_NO_TRACE_THREAD=1 peak "$scratch/tr2" "$T/bigwrite" 256) &&
	echo "rec peak: $k KiB" &&
	check_status rec.status 0 &&
	replay_cmp "$scratch/tr2" &&
	test "$k" -lt $((128 * 1024))
'

test_expect_success 'a full disk under a streamed record: one line, whole chunks' '
	mkdir mnt &&
	if ! mount -t tmpfs -o size=8m tmpfs mnt 2>/dev/null; then
		echo "# cannot mount a tmpfs: not tried"
		return 0
	fi
	rec -o mnt/tr "$T/bigwrite" 32 random >/dev/null 2>rec.err
	st=$?
	ls -A mnt/tr >ls.out
	timeout 60 tdump mnt/tr >out 2>err
	dst=$?
	umount mnt
	cat rec.err err
	expect_status $st 125 &&
	grep -v "^rec: recording to" rec.err >rec.err1 &&
	one_line_error rec.err1 "No space left on device" &&
	! grep -q "^\.events" ls.out &&
	expect_status $dst 0 &&
	grep -q "trace ends early after event [0-9]" err &&
	! grep -q "truncated chunk" err
'
test_done
