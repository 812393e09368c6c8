#!/bin/bash
# t1106-tree-divergence.sh: a trace altered on purpose (the random bytes a
# thread, or a child process, got are changed, so it writes another line)
# makes replay stop at that write with one line naming the event, exit 125.
. "$(dirname "$0")/test-lib.sh"
require_tprog threads tree
test_have_prereq PYTHON || skip_all 'no /usr/bin/python3'
command -v zstd >/dev/null 2>&1 || skip_all 'no zstd'

# alter_trace TRACE OLDHEX NEWHEX: in the records of TRACE/events, the bytes
# OLDHEX become NEWHEX (as long); the chunk holding them is recompressed
# (see rewind-trace(5)). Fails unless the bytes occur exactly once.
alter_trace () {
	/usr/bin/python3 - "$@" <<'EOF'
import os, struct, subprocess, sys, tempfile
path = os.path.join(sys.argv[1], "events")
old, new = bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
data = open(path, "rb").read()
out, off, hits = [data[:16]], 16, 0
while off + 24 <= len(data):
    magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, off)
    frame = data[off + 24:off + 24 + csize]
    raw = subprocess.run(["zstd", "-d", "-q", "-c"], input=frame, check=True,
                         stdout=subprocess.PIPE).stdout
    if len(raw) != rsize:
        sys.exit("chunk at %d: %d bytes, not %d" % (off, len(raw), rsize))
    n = raw.count(old)
    if n:
        hits += n
        with tempfile.NamedTemporaryFile() as f:
            f.write(raw.replace(old, new))
            f.flush()
            # From a file, zstd declares the content size and a checksum.
            frame = subprocess.run(["zstd", "-q", "-c", "--check", f.name],
                                   check=True, stdout=subprocess.PIPE).stdout
    out.append(struct.pack("<IIIIQ", magic, len(frame), rsize, nrec, first) + frame)
    off += 24 + csize
if off != len(data) or hits != 1:
    sys.exit("%s found %d times (file %d bytes, chunks end at %d)" %
             (sys.argv[2], hits, len(data), off))
with open(path + ".new", "wb") as f:
    f.write(b"".join(out))
os.replace(path + ".new", path)
EOF
}

# le_hex HEX8: the 4 bytes of a u32 as they lie in memory (little-endian).
le_hex () {
	echo "${1:6:2}${1:4:2}${1:2:2}${1:0:2}"
}

# flip_first HEX: HEX with the bits of its first byte inverted.
flip_first () {
	printf "%02x%s\n" $((0x${1:0:2} ^ 255)) "${1:2}"
}

# diverges TRACE: replays TRACE, which must stop with status 125, saying
# on stderr which event diverged (left in $ev).
diverges () {
	ev=
	timeout "$REWIND_TIMEOUT" replay "$1" >div.out 2>div.err
	local st=$?
	cat div.err
	expect_status $st 125 &&
	ev=$(sed -nE "1s/^replay: divergence at event ([0-9]+): .*/\1/p" div.err) &&
	test -n "$ev"
}

test_expect_success 'threads: record, and the unaltered trace replays' '
	rec_replay_cmp "$T/threads" &&
	run_tool tdump "$trace" >dump
'
test_expect_success 'threads: change the random bytes one thread got' '
	cp -r "$trace" alt &&
	# The first thread whose 4 bytes occur once in the trace.
	for k in 0 1 2 3; do
		tok=$(sed -nE "s/^thread $k token ([0-9a-f]{8})$/\1/p" rec.out) &&
		b=$(le_hex $tok) &&
		alter_trace alt $b $(flip_first $b) && break
	done &&
	echo "thread $k: token $tok" &&
	test -n "$tok" &&
	tid=$(sed -nE "s/^[0-9]+ [0-9]+ (syscall|sysret) clone3?\(.*\) = ([0-9]+) \(new thread .*\)$/\2/p" dump |
		sed -n "$((k + 1))p") &&
	test -n "$tid"
'
test_expect_success 'threads: replay stops at that thread'"'"'s write, exit 125' '
	diverges alt &&
	g=$(grep -E "^[0-9]+ $tid (syscall|sysret) getrandom\(" dump | head -n 1 | cut -d" " -f1) &&
	w=$(grep -E "^[0-9]+ $tid (syscall|sysret) write\(1, \"thread $k token " dump | tail -n 1 | cut -d" " -f1) &&
	echo "getrandom at $g, write at $w, divergence at $ev" &&
	test -n "$g" && test -n "$w" &&
	test "$ev" -gt "$g" && test "$ev" -le "$w" &&
	grep -q "^$ev $tid " dump
'
test_expect_success 'threads: the message is one line' '
	one_line_error div.err "^replay: divergence at event $ev: "
'
test_expect_success 'threads: the output before it is re-emitted, its line is not' '
	test -n "$ev" &&
	n=$(wc -c <div.out) &&
	head -c $n rec.out >prefix &&
	test_cmp_bytes prefix div.out &&
	! grep -q "^thread $k " div.out
'
test_expect_success 'tree: record, and the unaltered trace replays' '
	RR_EXPECT=2 rec_replay_cmp "$T/tree" &&
	run_tool tdump "$trace" >dump
'
test_expect_success 'tree: change the random bytes a child process got' '
	# Recorded again while its 4 bytes occur elsewhere in the trace too
	# (e4 00 00 7f was also part of an address once).
	ok= &&
	for try in 1 2 3 4; do
		rm -rf alt &&
		cp -r "$trace" alt &&
		read -r child c < <(sed -nE "s/^child ([0-9]+) says ([0-9a-f]{8})$/\1 \2/p" rec.out) &&
		test -n "$c" &&
		b=$(le_hex $c) || return 1
		if alter_trace alt $b $(flip_first $b); then
			ok=1
			break
		fi
		RR_EXPECT=2 rec_replay_cmp "$T/tree" && run_tool tdump "$trace" >dump || return 1
	done &&
	test -n "$ok"
'
test_expect_success 'tree: replay stops at that child'"'"'s write, exit 125' '
	diverges alt &&
	g=$(grep -E "^[0-9]+ $child (syscall|sysret) getrandom\(" dump | head -n 1 | cut -d" " -f1) &&
	w=$(grep -E "^[0-9]+ $child (syscall|sysret) write\(1, \"child $child says " dump | tail -n 1 | cut -d" " -f1) &&
	echo "getrandom at $g, write at $w, divergence at $ev" &&
	test -n "$g" && test -n "$w" &&
	test "$ev" -gt "$g" && test "$ev" -le "$w" &&
	grep -q "^$ev $child " dump
'
test_expect_success 'tree: the message is one line' '
	one_line_error div.err "^replay: divergence at event $ev: "
'
test_expect_success 'tree: the output before it is re-emitted, the child'"'"'s line is not' '
	test -n "$ev" &&
	n=$(wc -c <div.out) &&
	head -c $n rec.out >prefix &&
	test_cmp_bytes prefix div.out &&
	! grep -q "^child $child says " div.out
'
test_done
