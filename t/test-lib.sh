# test-lib.sh: sourced by every t/tNNNN-area-what.sh. Gives each test file a
# fresh scratch directory and git-style TAP helpers, plus helpers that record
# a program, replay the trace and compare what both runs wrote.

TEST_NAME=$(basename "$0" .sh)
TEST_DIR=$(cd "$(dirname "$0")" && pwd)
: "${REWIND_BIN:=$TEST_DIR/../build/bin}"
: "${REWIND_TPROG:=$TEST_DIR/../build/t}"
# Seconds before a hung rec/replay/tdump is killed; generous, since
# ASan builds are slow.
: "${REWIND_TIMEOUT:=60}"
export LC_ALL=C

test_count=0
test_failed=0
test_prereqs=" "
rr_n=0
REPLAY_CMD=

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rewind-$TEST_NAME.XXXXXX") || {
	echo "1..0 # SKIP cannot make a scratch directory"
	exit 0
}
cd "$scratch" || exit 1
mkdir -p home
HOME=$scratch/home
REWIND_DIR=$scratch/traces
export HOME REWIND_DIR

# The scratch directory goes when the file passed; it stays for a look
# when something failed.
test_cleanup () {
	cd / && rm -rf "$scratch"
}

# skip_all REASON: skip the whole file (call before any test).
skip_all () {
	echo "1..0 # SKIP $1"
	test_cleanup
	exit 0
}

for d in REWIND_BIN REWIND_TPROG; do
	eval "v=\$$d"
	if [ -d "$v" ]; then
		eval "$d=\$(cd \"\$v\" && pwd)"
	fi
done
export REWIND_BIN REWIND_TPROG
for tool in rec replay tdump tpack; do
	# A missing tool is a broken build, never a reason to skip.
	[ -x "$REWIND_BIN/$tool" ] || {
		echo "Bail out! no $tool in $REWIND_BIN (run make)"
		exit 1
	}
done
PATH=$REWIND_BIN:$PATH
export PATH
T=$REWIND_TPROG

# require_tprog NAME...: stop unless these test programs are built.
require_tprog () {
	for p in "$@"; do
		[ -x "$REWIND_TPROG/$p" ] || {
			echo "Bail out! test program $p not built in $REWIND_TPROG (run make)"
			exit 1
		}
	done
}

test_set_prereq () {
	test_prereqs="$test_prereqs$1 "
}

test_have_prereq () {
	case "$test_prereqs" in *" $1 "*) return 0 ;; esac
	return 1
}

grep -qw rdrand /proc/cpuinfo 2>/dev/null && test_set_prereq RDRAND
[ -x /usr/bin/python3 ] && test_set_prereq PYTHON
command -v bash >/dev/null 2>&1 && test_set_prereq BASH
command -v gdb >/dev/null 2>&1 && test_set_prereq GDB

say_comment () {
	sed 's/^/# /'
}

# test_run_ CODE: evaluates a test body inside a function of its own, so
# that a `return 1` in the body ends the body, not test_expect_success.
test_run_ () {
	eval "$1"
}

# test_expect_success [PREREQ] 'description' 'shell code'
# Runs the code in this shell (so variables carry to later tests) with
# stdin from /dev/null; it passes when the code's status is 0.
test_expect_success () {
	local prereq=
	if [ $# = 3 ]; then
		prereq=$1
		shift
	fi
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		echo "ok $test_count # skip $1 (missing $prereq)"
		return 0
	fi
	REPLAY_CMD=
	local log=$scratch/.log.$test_count
	if [ -n "$TEST_VERBOSE" ]; then
		# Not a pipe: the test runs in this shell, so what it sets
		# (such as $trace) is there for the next test.
		test_run_ "$2" </dev/null > >(tee "$log" | say_comment) 2>&1
		local st=$?
	else
		test_run_ "$2" </dev/null >"$log" 2>&1
		local st=$?
	fi
	cd "$scratch" || exit 1
	if [ "$st" = 0 ]; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		{
			printf '%s\n' "$2" | say_comment
			echo "# output:"
			tail -n 40 "$log" | say_comment
			if [ -n "$REPLAY_CMD" ]; then
				echo "# trace kept; replay it with:"
				echo "#   $REPLAY_CMD"
			fi
		} | tee /dev/stderr	# prove shows stderr: CI's log then says why
	fi
	rm -f "$log"
}

# test_skip 'description' 'reason'
test_skip () {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1 ($2)"
}

test_done () {
	echo "1..$test_count"
	if [ "$test_failed" != 0 ]; then
		echo "# failed $test_failed among $test_count test(s)"
		echo "# scratch directory kept: $scratch"
		exit 1
	fi
	test_cleanup
	exit 0
}

# run_tool TOOL ARGS...: runs a rewind tool under a timeout, so a hang
# shows as status 124 rather than a stuck test.
run_tool () {
	timeout -k 5 "$REWIND_TIMEOUT" "$@"
}

# counted [TRACE]: whether the start record of TRACE ($trace by default)
# says it was recorded counting (the default, not forced off by REWIND_NO_COUNT=1).
counted () {
	run_tool tdump "${1:-$trace}" 2>/dev/null | grep -q "^0 .* start .*counted=[1-9]"
}

# test_cmp_bytes EXPECTED ACTUAL: the two files hold the same bytes.
test_cmp_bytes () {
	if cmp -s "$1" "$2"; then
		return 0
	fi
	echo "$1 and $2 differ:"
	diff -a "$1" "$2" | head -n 20
	return 1
}

# check_status FILE EXPECTED: FILE holds the number EXPECTED.
check_status () {
	local got
	got=$(cat "$1")
	if [ "$got" != "$2" ]; then
		echo "$1: status $got, expected $2"
		return 1
	fi
}

# expect_status GOT EXPECTED: a status is the expected one.
expect_status () {
	if [ "$1" != "$2" ]; then
		echo "status $1, expected $2"
		return 1
	fi
}

# strip_rec_line FILE: FILE without rec's opening "rec: recording to" line,
# which is rec's own and not the program's.
strip_rec_line () {
	sed '1{/^rec: recording to /d}' "$1"
}

# rec_prog PROG ARGS...: records PROG into $scratch/trace.N (set in $trace),
# running it in a fresh directory run.N with the caller's stdin. Leaves
# rec.out, rec.err (program's stderr, rec's line removed), rec.err.raw
# and rec.status in the scratch directory.
rec_prog () {
	# A pipeline runs this in a subshell and loses the count: take the
	# first free number. Feed stdin with <file to keep $trace set.
	rr_n=$((rr_n + 1))
	while [ -e "$scratch/trace.$rr_n" ]; do
		rr_n=$((rr_n + 1))
	done
	trace=$scratch/trace.$rr_n
	mkdir -p "$scratch/run.$rr_n"
	(cd "$scratch/run.$rr_n" && run_tool rec -o "$trace" -- "$@") \
		>"$scratch/rec.out" 2>"$scratch/rec.err.raw"
	echo $? >"$scratch/rec.status"
	strip_rec_line "$scratch/rec.err.raw" >"$scratch/rec.err"
}

# replay_cmp [TRACE]: replays TRACE (default $trace) from an empty
# directory with no stdin and compares its stdout, stderr and status with
# rec.out, rec.err and rec.status.
replay_cmp () {
	local tr=${1:-$trace}
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $tr"
	rm -rf "$scratch/elsewhere"
	mkdir -p "$scratch/elsewhere"
	(cd "$scratch/elsewhere" && run_tool replay "$tr") \
		>"$scratch/replay.out" 2>"$scratch/replay.err" </dev/null
	echo $? >"$scratch/replay.status"
	test_cmp_bytes "$scratch/rec.out" "$scratch/replay.out" &&
	test_cmp_bytes "$scratch/rec.err" "$scratch/replay.err" &&
	check_status "$scratch/replay.status" "$(cat "$scratch/rec.status")"
}

# rec_replay_cmp PROG ARGS...: records PROG (which must exit with
# ${RR_EXPECT:-0}), replays the trace and compares the bytes written to
# stdout and stderr and the exit statuses.
rec_replay_cmp () {
	rec_prog "$@"
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
	if ! check_status "$scratch/rec.status" "${RR_EXPECT:-0}"; then
		echo "rec's stderr:"
		cat "$scratch/rec.err.raw"
		return 1
	fi
	replay_cmp "$trace"
}

# rec_chaos SEED PROG ARGS...: records PROG with --chaos=SEED (threads
# switched after a random 1 to 2^20 of their counted edges, and at call
# ends) into $scratch/chaos.SEED, as $trace; leaves rec.out, rec.err
# (without rec's own lines) and rec.status for replay_cmp.
rec_chaos () {
	local seed=$1
	shift
	trace=$scratch/chaos.$seed
	run_tool rec -o "$trace" --chaos="$seed" "$@" >rec.out 2>rec.err.raw </dev/null
	echo $? >rec.status
	awk 'NR <= 2 && /^rec: (recording to |chaos seed [0-9]+$)/ { next } { print }' \
		rec.err.raw >rec.err
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
}

# differs_natively PROG ARGS...: runs PROG without rec until two runs
# outputs differ (at most four runs), so a matching replay proves the
# trace and not a lucky re-execution. Several runs, because a program
# whose output has little randomness (a status modulo 50, say) prints
# the same twice now and then.
differs_natively () {
	local i
	rm -rf "$scratch/nat.1"
	mkdir -p "$scratch/nat.1"
	(cd "$scratch/nat.1" && "$@") >"$scratch/nat1.out" 2>&1 </dev/null
	for i in 2 3 4; do
		rm -rf "$scratch/nat.$i"
		mkdir -p "$scratch/nat.$i"
		(cd "$scratch/nat.$i" && "$@") >"$scratch/nat$i.out" 2>&1 </dev/null
		cmp -s "$scratch/nat1.out" "$scratch/nat$i.out" || return 0
	done
	echo "$* printed the same four times natively:"
	cat "$scratch/nat1.out"
	return 1
}

# native_cmp PROG ARGS...: for a program whose output is the same every
# run: runs it natively (in nat.0, output in nat.out, nat.err and
# nat.status), records it as rec_prog does, and checks that under rec it
# wrote the same bytes and ended with the same status as natively; then
# replays the trace and compares as replay_cmp does. Without rec and
# under it, the program's parent is a shell that is not a job's leader.
native_cmp () {
	rm -rf "$scratch/nat.0"
	mkdir -p "$scratch/nat.0"
	(cd "$scratch/nat.0" && timeout -k 5 "$REWIND_TIMEOUT" "$@") \
		>"$scratch/nat.out" 2>"$scratch/nat.err"
	echo $? >"$scratch/nat.status"
	rec_prog "$@"
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
	if ! test_cmp_bytes "$scratch/nat.out" "$scratch/rec.out" ||
	   ! test_cmp_bytes "$scratch/nat.err" "$scratch/rec.err" ||
	   ! check_status "$scratch/rec.status" "$(cat "$scratch/nat.status")"; then
		echo "under rec, not as natively; rec's stderr:"
		cat "$scratch/rec.err.raw"
		return 1
	fi
	replay_cmp "$trace"
}

# set_start_item DIR TAG VALUE|none: rewrites the start record of trace
# DIR so that its item TAG holds the u32 VALUE (or u32s: A,B), or is left out (as an
# older rewind wrote it). The start record opens the first chunk: that
# chunk is decompressed, changed and compressed again (rewind-trace(5)).
set_start_item () {
	python3 - "$1/events" "$2" "$3" <<\EOF
import struct, subprocess, sys
path, tagwant, val = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HDR, CHDR, RHDR, FIXED = 16, 24, 24, 16
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
    if tag == tagwant:
        found = True
        words = [] if val == "none" else [int(v) for v in val.split(",")]
        item = b"" if val == "none" else \
            struct.pack("<HHI", tag, iflags, 4 * len(words)) + struct.pack("<%dI" % len(words), *words)
    items += item
    off += 8 + ilen
assert found, "no item %d in the start record" % tagwant
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

# tamper_record DIR WHICH WHAT: rewrites a record of trace DIR: the
# first that WHICH names, point (a TR_PREEMPT with TRP_POINT) or signal
# (a TR_SIGNAL with a count), or the last of call:NR (a TR_SYSCALL of
# syscall number NR holding the item WHAT changes). WHAT is regs (a bit
# of r15 flipped), hash (the hash of its first block that is not a zero
# run), count (one more), count-back (100000 less) or mem (the first
# byte of its first output, xor 0x0f). Prints the record's event
# number. Needs python3 and the zstd command.
tamper_record () {
	python3 - "$1/events" "$2" "$3" <<\EOF2
import struct, subprocess, sys
path, which, what = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(path, "rb").read())
tags = {"regs": 4, "hash": 9, "count": 26, "count-back": 26, "mem": 1}

def find(raw, r, kind, size):
    """The offset of the item WHAT changes in the record at r, or None."""
    i = r + 24 + {8: 16, 3: 136, 2: 64}[kind]
    while i < r + size:
        tag, iflags, ilen = struct.unpack_from("<HHI", raw, i)
        if tag == tags[what]:
            return i
        i += 8 + ilen
    return None

last, found = which.startswith("call:"), None
off = 16
while off < len(data):
    magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, off)
    body = bytes(data[off + 24:off + 24 + csize])
    raw = bytearray(subprocess.run(["zstd", "-d", "-q", "-c"], input=body,
                                   stdout=subprocess.PIPE, check=True).stdout)
    r = 0
    while r < len(raw):
        kind, flags, size, event = struct.unpack_from("<HHIQ", raw, r)
        point = kind == 8 and struct.unpack_from("<Q", raw, r + 32)[0] & 4
        call = kind == 2 and which == "call:%d" % struct.unpack_from("<i", raw, r + 24)[0]
        if (which == "point" and point) or (which == "signal" and kind == 3) or call:
            i = find(raw, r, kind, size)
            if i is not None or which == "point":
                found = (off, raw, r, i, event)
                if not last:
                    break
        r += size
    if found and not last:
        break
    off += 24 + csize
if not found:
    sys.exit("no such record in the trace")
off, raw, r, i, event = found
if i is None:
    sys.exit("no item to change")
p = i + 8
if what == "regs":
    raw[p] ^= 0x10
elif what.startswith("count"):
    c = struct.unpack_from("<Q", raw, p)[0]
    struct.pack_into("<Q", raw, p, c + 1 if what == "count" else c - 100000)
elif what == "hash":
    ilen = struct.unpack_from("<I", raw, i + 4)[0]
    k = next(k for k in range(p, p + ilen, 24) if struct.unpack_from("<Q", raw, k + 16)[0] != 0)
    raw[k + 16] ^= 1
else:
    raw[p + 8] ^= 0x0f
magic, csize, rsize, nrec, first = struct.unpack_from("<IIIIQ", data, off)
comp = subprocess.run(["zstd", "-1", "-q", "-c", "--check", "--stream-size=%d" % len(raw)],
                      input=bytes(raw), stdout=subprocess.PIPE, check=True).stdout
data[off:off + 24 + csize] = struct.pack("<IIIIQ", magic, len(comp), len(raw), nrec, first) + comp
open(path, "wb").write(data)
print(event)
EOF2
}

# flip_byte FILE OFFSET: inverts every bit of the byte at OFFSET.
flip_byte () {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	[ -n "$b" ] || { echo "flip_byte: $1 has no byte at $2"; return 1; }
	printf "\\$(printf %03o $((b ^ 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# put_u32 FILE OFFSET VALUE: writes VALUE little-endian at OFFSET.
put_u32 () {
	local v=$3 i s=
	for i in 0 1 2 3; do
		s="$s\\$(printf %03o $((v & 255)))"
		v=$((v >> 8))
	done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# get_u32 FILE OFFSET: the little-endian u32 at OFFSET, in decimal.
get_u32 () {
	od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

# cpu_entry FILE LEAF SUBLEAF: the offset of that entry of a cpu file
# (rewind-trace(5): a 32-byte header from version 3 on, 24 before).
cpu_entry () {
	local n i off hdr=24
	n=$(get_u32 "$1" 12)
	[ "$(get_u32 "$1" 8)" -ge 3 ] && hdr=32
	for ((i = 0; i < n; i++)); do
		off=$((hdr + 24 * i))
		if [ "$(get_u32 "$1" $off)" = "$2" ] && [ "$(get_u32 "$1" $((off + 4)))" = "$3" ]; then
			echo $off
			return 0
		fi
	done
	echo "$1: no entry for leaf $2 subleaf $3"
	return 1
}

# cpu_resum FILE: rewrites the checksum that ends a cpu file (the hash of
# rewind-trace(5), THE FILES DIRECTORY, of the bytes before it), so that
# a test can make a valid file for another CPU. Needs python3.
cpu_resum () {
	python3 - "$1" <<-\END
	import sys
	M = (1 << 64) - 1
	def rotl(x, r): return ((x << r) | (x >> (64 - r))) & M
	p = sys.argv[1]
	d = open(p, "rb").read()[:-8]
	k1, k2, h = 0x87c37b91114253d5, 0x4cf5ad432745937f, 0x9e3779b97f4a7c15
	n = len(d) // 8 * 8
	for i in range(0, n, 8):
	    h = rotl(h ^ (int.from_bytes(d[i:i + 8], "little") * k1 & M), 31) * k2 & M
	if len(d) > n:
	    w = int.from_bytes(d[n:] + bytes(8 - (len(d) - n)), "little")
	    h = rotl(h ^ (w * k1 & M) ^ (len(d) - n), 29) * k2 & M
	h ^= len(d)
	for m in (0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53):
	    h ^= h >> 33
	    h = h * m & M
	h ^= h >> 33
	open(p, "wb").write(d + h.to_bytes(8, "little"))
	END
}

# one_line_error FILE PATTERN: FILE (a stderr) is one line matching the
# extended regex PATTERN.
one_line_error () {
	local n
	n=$(wc -l <"$1")
	if [ "$n" != 1 ]; then
		echo "$1 has $n lines, expected one:"
		head -n 10 "$1"
		return 1
	fi
	if ! grep -Eq -- "$2" "$1"; then
		echo "$1 does not match /$2/:"
		cat "$1"
		return 1
	fi
}

# not_signalled STATUS: a status that is not a crash (>= 128) nor the
# timeout's 124.
not_signalled () {
	if [ "$1" -ge 128 ] || [ "$1" = 124 ]; then
		echo "status $1: killed by a signal or timed out"
		return 1
	fi
}

# require_gdb: skip the whole file when there is no gdb to drive gdbstub.
require_gdb () {
	command -v gdb >/dev/null 2>&1 || skip_all "no gdb"
	[ -x "$REWIND_BIN/gdbstub" ] || {
		echo "Bail out! no gdbstub in $REWIND_BIN (run make)"
		exit 1
	}
}

# gdb_run PROG SCRIPT...: gdb in batch mode on PROG, sourcing each SCRIPT
# in turn (an error ends only its own script); all it prints goes to
# gdb.out, and a copy to gdb.out.N (N the test's number), kept with the
# scratch directory when a later test overwrites gdb.out. Its status is
# gdb's (124 after the timeout).
gdb_run () {
	local prog=$1 s args=() st
	shift
	for s in "$@"; do
		args+=(-x "$s")
	done
	timeout -k 5 120 gdb -batch -nx -iex "set remotetimeout 60" "${args[@]}" "$prog" >gdb.out 2>&1
	st=$?
	cp gdb.out "gdb.out.$test_count"
	return $st
}

# gdb_cmp PROG: gdbstub runs $trace to its end with no divergence, and
# the program writes what it wrote under rec.
gdb_cmp () {
	cat >run.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	continue
	END
	gdb_run "$1" run.gdb &&
	grep -q "^No more reverse-execution history" gdb.out &&
	! grep -i divergence gdb.out &&
	! grep -vxF -f gdb.out rec.out
}

# gdb_end_and_back PROG: gdbstub runs $trace to its end and back to its
# start, with no divergence on either way.
gdb_end_and_back () {
	cat >run.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $trace
	continue
	reverse-continue
	END
	gdb_run "$1" run.gdb &&
	test "$(grep -c "^No more reverse-execution history" gdb.out)" = 2 &&
	! grep -i divergence gdb.out
}

# gdb_section NAME [FILE]: the lines of FILE (gdb.out) after a script's
# "echo @@ NAME\n" and before the next "@@ " mark.
gdb_section () {
	awk -v m="@@ $1" '$0 == m { on = 1; next } /^@@ / { on = 0 } on' "${2:-gdb.out}"
}

# gdb_values NAME [FILE]: the values that print showed in that section,
# without gdb's "$N = ", one a line.
gdb_values () {
	gdb_section "$@" | sed -n 's/^\$[0-9]* = //p'
}

# wait_for FILE PATTERN: waits (up to $REWIND_TIMEOUT s) until FILE has a
# line matching the extended regex PATTERN.
wait_for () {
	local i=0
	while ! grep -Eq -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt $((REWIND_TIMEOUT * 20)) ]; then
			echo "no /$2/ in $1 after $REWIND_TIMEOUT s"
			return 1
		fi
		sleep 0.05
	done
}

# cpu_ticks PID: the CPU time (user and system, in clock ticks) process
# PID has used, all its threads together.
cpu_ticks () {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# wait_ran PID TICKS: waits until process PID has used TICKS clock ticks
# of CPU more than when this was called (gives up after $REWIND_TIMEOUT
# s). A program seen to have made its last call before a loop that makes
# none is in that loop once it ran that long more: the rest of a call
# takes microseconds, and a stopped program gains no time.
wait_ran () {
	local t0 t i=0
	t0=$(cpu_ticks "$1")
	[ -n "$t0" ] || { echo "no process $1"; return 1; }
	while :; do
		t=$(cpu_ticks "$1")
		[ -n "$t" ] || { echo "process $1 is gone"; return 1; }
		[ "$t" -ge $((t0 + $2)) ] && return 0
		i=$((i + 1))
		if [ $i -gt $((REWIND_TIMEOUT * 20)) ]; then
			echo "process $1 ran $((t - t0)) ticks in $REWIND_TIMEOUT s"
			return 1
		fi
		sleep 0.05
	done
}
