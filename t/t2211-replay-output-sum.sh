#!/bin/bash
# t2211-replay-output-sum.sh: what a write, writev or the like sent to
# rec's stdout or stderr is kept by length and hash only (IT_EMITSUM):
# replay reads the bytes where the re-executed program has them again,
# prints them byte for byte, and stops with one line when they differ
# from the recording's hash.
. "$(dirname "$0")/test-lib.sh"
require_tprog outv
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq ZSTD

test_expect_success 'outv prints different bytes each run' '
	differs_natively "$T/outv"
'
test_expect_success 'record and replay: the same bytes on stdout and stderr' '
	rec_replay_cmp "$T/outv" &&
	test "$(wc -c <"$scratch/rec.out")" -gt 1048576 &&
	grep -q "^to stderr: second " "$scratch/rec.err"
'
test_expect_success 'the trace does not hold the output: its events are a tenth of it' '
	size=$(wc -c <"$trace/events") &&
	test "$size" -lt 104858 || { echo "events: $size bytes"; false; }
'
test_expect_success 'tdump still shows what each call wrote, by its first bytes' '
	tdump "$trace" >dump &&
	grep -q "writev(1, \[\"\\\\nfirst [0-9a-f]* second " dump &&
	grep -q "writev(2, \[\"to stderr: second [0-9a-f]* \"\], 2) = 27" dump
'

# tamper_sum DIR: flips a bit of the hash in the first IT_EMITSUM of
# trace DIR (its chunk decompressed, changed and compressed again, see
# rewind-trace(5)); prints the event number of its record.
tamper_sum () {
	python3 - "$1/events" <<\EOF2
import struct, subprocess, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
off = 16
while off < len(data):
    magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, off)
    raw = bytearray(subprocess.run(["zstd", "-d", "-q", "-c"],
                                   input=bytes(data[off + 24:off + 24 + csize]),
                                   stdout=subprocess.PIPE, check=True).stdout)
    r = 0
    while r < len(raw):
        kind, flags, size, event = struct.unpack_from("<HHIQ", raw, r)
        fixed = {2: 64, 6: 16}.get(kind)
        i = r + 24 + fixed if fixed else r + size
        while i < r + size:
            tag, iflags, ilen = struct.unpack_from("<HHI", raw, i)
            if tag == 28:
                raw[i + 16] ^= 1
                comp = subprocess.run(["zstd", "-1", "-q", "-c", "--check",
                                       "--stream-size=%d" % len(raw)], input=bytes(raw),
                                      stdout=subprocess.PIPE, check=True).stdout
                data[off:off + 24 + csize] = struct.pack("<IIIIQ", magic, len(comp),
                                                         len(raw), nrec, first) + comp
                open(path, "wb").write(data)
                print(event)
                sys.exit(0)
            i += 8 + ilen
        r += size
    off += 24 + csize
sys.exit("no IT_EMITSUM in the trace")
EOF2
}

test_expect_success ZSTD 'a recorded hash replay does not meet is a divergence, in one line' '
	cp -r "$trace" bad &&
	ev=$(tamper_sum bad) &&
	timeout 60 replay bad >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "write to stdout: its bytes differ from the recording.s" &&
	grep -q "$ev" err
'
test_done
