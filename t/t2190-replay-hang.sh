#!/bin/bash
# t2190-replay-hang.sh: replay's hang watch ends a replay whose thread can
# never wake (a trace's signal changed) in one line, REWIND_NO_HANG_CHECK=1
# waits, and a vfork parent asleep while its child computes is left alone.
. "$(dirname "$0")/test-lib.sh"
require_tprog suspwake vforkspin
command -v python3 >/dev/null && command -v zstd >/dev/null ||
	skip_all "needs python3 and zstd"

# sig_to_usr2 TRACE: the TR_SIGNAL records of SIGUSR1 become SIGUSR2's,
# each chunk decompressed, changed and compressed again.
sig_to_usr2 () {
	python3 - "$1/events" <<-\END
	import struct, subprocess, sys
	p = sys.argv[1]
	d = open(p, "rb").read()
	out, off, n = bytearray(d[:16]), 16, 0
	while off < len(d):
	    magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", d, off)
	    raw = bytearray(subprocess.run(["zstd", "-dcq"], input=d[off + 24:off + 24 + csize],
	                                   stdout=subprocess.PIPE, check=True).stdout)
	    r = 0
	    while r < len(raw):
	        kind, flags, size = struct.unpack_from("<HHI", raw, r)
	        if kind == 3 and struct.unpack_from("<I", raw, r + 24)[0] == 10:
	            struct.pack_into("<I", raw, r + 24, 12)
	            struct.pack_into("<i", raw, r + 32, 12)	# si_signo
	            n += 1
	        r += size
	    open(p + ".raw", "wb").write(raw)
	    subprocess.run(["zstd", "-qf", "--content-size", "--check", p + ".raw", "-o", p + ".zst"],
	                   check=True)
	    z = open(p + ".zst", "rb").read()
	    out += struct.pack("<IIIIQ", magic, len(z), rsize, nrec, first) + z
	    off += 24 + csize
	open(p, "wb").write(out)
	print(n)
	END
}

test_expect_success 'record: the SIGUSR1 wakes rt_sigsuspend' '
	rec_replay_cmp "$T/suspwake" &&
	grep -qx woke rec.out &&
	cp -r "$trace" changed
'
test_expect_success 'the SIGUSR1 changed to SIGUSR2: replay ends, one line, status 125' '
	test "$(sig_to_usr2 changed)" = 1 &&
	start=$(date +%s) &&
	run_tool replay changed >rp.out 2>rp.err
	expect_status $? 125 &&
	test $(($(date +%s) - start)) -lt 30 &&
	tid=$(tdump changed | awk "/ rt_sigsuspend/ { print \$2; exit }") &&
	child=$(tdump changed | awk "/ kill\(/ { print \$2; exit }") &&
	one_line_error rp.err "^replay: divergence at event [0-9]+: every thread of the program waits for what only replay could end: thread $tid sleeps in rt_sigsuspend, where nothing in the replay can wake it; held by replay: $child \(REWIND_NO_HANG_CHECK=1 waits instead\)$" &&
	! grep -q woke rp.out
'
test_expect_success 'REWIND_NO_HANG_CHECK=1: replay waits' '
	REWIND_NO_HANG_CHECK=1 timeout 6 replay changed >nc.out 2>nc.err
	expect_status $? 124 &&
	! grep -q "every thread" nc.err
'
test_expect_success 'a vfork parent asleep for seconds while its child computes: replays' '
	rec_replay_cmp "$T/vforkspin" &&
	grep -q "^child ended [0-9]*, token [0-9]*$" rec.out
'
test_done
