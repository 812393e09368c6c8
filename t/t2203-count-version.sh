#!/bin/bash
# t2203-count-version.sh: the trace says how rec patched code to count
# (IT_COUNT holds lib/count.h's COUNT_VERSION), and replay refuses a
# trace counted by another version by name instead of patching the
# program differently. A non-PIE executable (python3.11, mapped at
# 0x400000) is counted too: its trampolines go above it.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
export REWIND_COUNT=1 REWIND_NO_COUNT= XDG_CACHE_HOME=$scratch/cache
ver=$(sed -n 's/^#define COUNT_VERSION \([0-9]*\).*/\1/p' "$TEST_DIR/../lib/count.h")

# set_count DIR VALUE: rewrites the start record of trace DIR so its
# IT_COUNT item holds VALUE (as t5010 does for IT_BUFABI).
set_count () {
	python3 - "$1/events" "$2" <<\EOF
import struct, subprocess, sys
path, val = sys.argv[1], sys.argv[2]
IT_COUNT, HDR, CHDR, RHDR, FIXED = 26, 16, 24, 24, 16
data = open(path, "rb").read()
magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, HDR)
end = HDR + CHDR + csize
raw = subprocess.run(["zstd", "-d", "-q", "-c"], input=data[HDR + CHDR:end],
                     stdout=subprocess.PIPE, check=True).stdout
kind, flags, size = struct.unpack_from("<HHI", raw, 0)
assert kind == 1 and len(raw) == rsize
rec = bytearray(raw[:size])
off, items, found = RHDR + FIXED, b"", False
while off < size:
    tag, iflags, ilen = struct.unpack_from("<HHI", rec, off)
    item = bytes(rec[off:off + 8 + ilen])
    if tag == IT_COUNT:
        found = True
        item = b"" if val == "none" else \
            struct.pack("<HHII", tag, iflags, 4, int(val))
    items += item
    off += 8 + ilen
assert found, "no IT_COUNT item in the start record"
rec = rec[:RHDR + FIXED] + items
struct.pack_into("<I", rec, 4, len(rec))
raw = bytes(rec) + raw[size:]
# The frame must say its content size: give zstd the input's size.
comp = subprocess.run(["zstd", "-1", "-q", "-c", "--check", "--stream-size=%d" % len(raw)], input=raw,
                      stdout=subprocess.PIPE, check=True).stdout
chunk = struct.pack("<IIIIQ", magic, len(comp), len(raw), nrec, first) + comp
open(path, "wb").write(data[:HDR] + chunk + data[end:])
EOF
}

test_expect_success 'the start record gives the version' '
	test -n "$ver" &&
	rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=$ver" dump
'
test_expect_success 'the rewritten trace still replays with the version kept' '
	cp -r "$trace" same &&
	set_count same "$ver" &&
	replay_cmp "$scratch/same"
'
test_expect_success 'a trace counted by version 1 is refused by name' '
	cp -r "$trace" v1 &&
	set_count v1 1 &&
	run_tool replay v1 >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: the trace was counted by code patched another way \(patcher 1; this rewind.s is $ver\): record the program again$" &&
	! test -s out
'
PY=/usr/bin/python3.11
test -x $PY && readelf -hW $PY 2>/dev/null | grep -q "Type:.*EXEC" && test_set_prereq NOPIE
test_expect_success NOPIE 'a non-PIE executable is counted, and replays' '
	REWIND_COUNT_SITES=$scratch/py.log rec_replay_cmp $PY -c "import json, re; print(sum(len(json.dumps(list(range(i)))) for i in range(300)))" &&
	grep "^map .* $PY$" py.log >m &&
	test "$(cut -d" " -f5 m)" -gt 1000
'
test_done
