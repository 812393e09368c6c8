#!/bin/bash
# t2206-count-point-tampered.sh: a point whose recorded state replay
# does not reach is a divergence, never a silent wrong answer: with a
# register of the point's state changed, or the hash of one of its
# memory blocks, or its count, replay stops with one line naming the
# event and exits 125.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
test_have_prereq PYTHON || skip_all "no python3"

# tamper_point DIR WHAT: rewrites the first point (a TR_PREEMPT with
# TRP_POINT) of trace DIR: WHAT is regs (a bit of r15 flipped), hash
# (the hash of its first block that is not a zero run) or count (one
# more). Prints the point's event number.
tamper_point () {
	python3 - "$1/events" "$2" <<\EOF2
import struct, subprocess, sys
path, what = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
off = 16
while off < len(data):
    magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, off)
    body = bytes(data[off + 24:off + 24 + csize])
    raw = bytearray(subprocess.run(["zstd", "-d", "-q", "-c"], input=body,
                                   stdout=subprocess.PIPE, check=True).stdout)
    r = 0
    while r < len(raw):
        kind, flags, size, event = struct.unpack_from("<HHIQ", raw, r)
        if kind == 8 and struct.unpack_from("<Q", raw, r + 32)[0] & 4:
            i = r + 24 + 16
            while i < r + size:
                tag, iflags, ilen = struct.unpack_from("<HHI", raw, i)
                p = i + 8
                if what == "regs" and tag == 4:
                    raw[p] ^= 0x10
                    break
                if what == "count" and tag == 26:
                    struct.pack_into("<Q", raw, p, struct.unpack_from("<Q", raw, p)[0] + 1)
                    break
                if what == "hash" and tag == 9:
                    k = next(k for k in range(p, p + ilen, 24)
                             if struct.unpack_from("<Q", raw, k + 16)[0] != 0)
                    raw[k + 16] ^= 1
                    break
                i = p + ilen
            else:
                sys.exit("no item to change")
            comp = subprocess.run(["zstd", "-1", "-q", "-c", "--check",
                                   "--stream-size=%d" % len(raw)], input=bytes(raw),
                                  stdout=subprocess.PIPE, check=True).stdout
            chunk = struct.pack("<IIIIQ", magic, len(comp), len(raw), nrec, first) + comp
            data[off:off + 24 + csize] = chunk
            open(path, "wb").write(data)
            print(event)
            sys.exit(0)
        r += size
    off += 24 + csize
sys.exit("no point in the trace")
EOF2
}

test_expect_success 'record counting with points' '
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump
'
grep -q " (point: " dump 2>/dev/null && test_set_prereq POINTS
for what in regs hash count; do
	test_expect_success POINTS "a point with its $what changed diverges, exit 125" '
		rm -rf bad && cp -r "$trace" bad &&
		ev=$(tamper_point bad '$what') &&
		run_tool replay bad >out 2>err
		expect_status $? 125 &&
		one_line_error err "^replay: divergence at event $ev: thread [0-9]+: .*point" &&
		! test_cmp_bytes rec.out out >/dev/null
	'
done
test_expect_success POINTS 'the untouched copy still replays' '
	rm -rf same && cp -r "$trace" same &&
	replay_cmp "$scratch/same"
'
test_done
