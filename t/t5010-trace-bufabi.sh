#!/bin/bash
# t5010-trace-bufabi.sh: the start record names the syscall buffer's ABI
# revision that recorded the trace (IT_BUFABI); replay, gdbstub and tseek
# refuse a trace of another revision, or one that names none (an older
# rewind), with one line naming both revisions and status 125, never a
# divergence. tdump still shows such a trace.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"

# set_bufabi DIR VALUE|none: rewrites the start record of trace DIR so its
# IT_BUFABI item holds VALUE, or has no such item (as an older rewind
# wrote it). The start record opens the first chunk: that chunk is
# decompressed, changed and compressed again (rewind-trace(5)).
set_bufabi () {
	python3 - "$1/events" "$2" <<\EOF
import struct, subprocess, sys
path, val = sys.argv[1], sys.argv[2]
IT_BUFABI, HDR, CHDR, RHDR, FIXED = 14, 16, 24, 24, 16
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
    if tag == IT_BUFABI:
        found = True
        item = b"" if val == "none" else \
            struct.pack("<HHII", tag, iflags, 4, int(val))
    items += item
    off += 8 + ilen
assert found, "no IT_BUFABI item in the start record"
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

test_expect_success 'record; replay matches' '
	rec_replay_cmp "$T/lines" 3
'
test_expect_success 'tdump shows the revision at the start' '
	run_tool tdump "$trace" >dump &&
	head -n 1 dump >start &&
	grep -Eq "^0 [0-9]+ start .*buf-abi=[1-9][0-9]*( |$)" start &&
	rev=$(sed -nE "s/.* buf-abi=([0-9]+).*/\1/p" start) &&
	echo "$rev" >rev &&
	run_tool tdump --json "$trace" | head -n 1 | grep -q "\"buf_abi\":$rev[,}]"
'
rev=$(cat rev 2>/dev/null)
test_expect_success 'the rewritten trace still replays when the revision is kept' '
	cp -r "$trace" same &&
	set_bufabi same "$rev" &&
	replay_cmp "$scratch/same"
'
test_expect_success 'a newer revision: replay refuses it in one line naming both' '
	cp -r "$trace" newer &&
	set_bufabi newer $((rev + 1)) &&
	run_tool replay newer >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*newer/events: recorded by a newer rewind \(syscall buffer ABI revision $((rev + 1))\), this one has revision $rev: record the program again$" &&
	! test -s out
'
test_expect_success 'no revision (an older rewind): refused, revision 0' '
	cp -r "$trace" older &&
	set_bufabi older none &&
	run_tool replay older >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: .*older/events: recorded by an older rewind \(syscall buffer ABI revision 0\), this one has revision $rev: " &&
	! test -s out
'
test_expect_success 'tdump still shows them' '
	run_tool tdump newer >dump.newer &&
	head -n 1 dump.newer | grep -q " buf-abi=$((rev + 1))" &&
	run_tool tdump older >dump.older &&
	! head -n 1 dump.older | grep -q "buf-abi=" &&
	tail -n +2 dump.older >a &&
	tail -n +2 dump >b &&
	test_cmp_bytes b a
'
test_expect_success 'gdbstub refuses it the same way' '
	run_tool gdbstub older </dev/null >out 2>err
	expect_status $? 125 &&
	one_line_error err "^gdbstub: .*older/events: recorded by an older rewind \(syscall buffer ABI revision 0\), this one has revision $rev: "
'
test_expect_success 'and tseek' '
	run_tool tseek newer >out 2>err
	expect_status $? 125 &&
	one_line_error err "^tseek: .*newer/events: recorded by a newer rewind \(syscall buffer ABI revision $((rev + 1))\), this one has revision $rev: "
'
test_done
