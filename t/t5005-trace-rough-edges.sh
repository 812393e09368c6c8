#!/bin/bash
# t5005-trace-rough-edges.sh: what a newcomer meets, each said in one
# line: a FIFO where events or cpu should be does not hang a reader; a
# directory that is not a trace is called that; tseek --list of a missing
# trace says so, not "run tseek"; no trace recorded yet (an empty
# REWIND_DIR) and a latest-trace pointing nowhere are named; rec -o takes
# an empty directory and refuses a non-empty one; the cpu file is
# checksummed, so a flipped or zeroed byte anywhere in it is "corrupt",
# naming the file and the checksum's offset, never a CPU mismatch, while
# a version 1 file (from before the checksum) is still read.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

# fails_one TOOL ARGS...: TOOL exits 125 in time with one line on stderr
# (in err), nothing on stdout.
fails_one () {
	run_tool "$@" >out 2>err </dev/null
	local st=$?
	expect_status $st 125 && test ! -s out && test "$(wc -l <err)" = 1 || { cat err; return 1; }
}

test_expect_success 'random prints something else each native run' '
	differs_natively "$T/random"
'
test_expect_success 'record random; replay matches' '
	rec_replay_cmp "$T/random"
'
test_expect_success 'an events FIFO: tdump, replay and tseek --list say so at once' '
	cp -a "$trace" fifo && rm fifo/events && mkfifo fifo/events &&
	for tool in tdump replay "tseek --list"; do
		fails_one $tool fifo &&
		grep -qx "${tool%% *}: fifo/events: not a regular file" err || return 1
	done
'
test_expect_success 'a cpu FIFO: replay and tpack say so at once' '
	cp -a "$trace" cfifo && rm cfifo/cpu && mkfifo cfifo/cpu &&
	fails_one replay cfifo &&
	grep -qx "replay: cfifo/cpu: not a regular file" err &&
	fails_one tpack cfifo &&
	grep -qx "tpack: cfifo/cpu: not a regular file" err
'
test_expect_success 'a directory that is not a trace is called that, by every reader' '
	mkdir notrace && echo hi >notrace/hello &&
	for tool in replay tdump tpack "tseek --list" tseek gdbstub; do
		fails_one $tool notrace &&
		grep -qx "${tool%% *}: notrace: not a trace directory (it has no events file)" err || return 1
	done
'
test_expect_success 'tseek --list of a trace that is not there names it, not the index' '
	fails_one tseek --list "$scratch/nonexistent" &&
	grep -qx "tseek: $scratch/nonexistent: No such file or directory" err &&
	run_tool tseek --list "$trace" >out 2>err
	expect_status $? 125 &&
	grep -qx "tseek: $trace/seek/index: no index; run tseek on the trace first" err
'
test_expect_success 'no trace recorded yet (an empty REWIND_DIR): each tool says so' '
	mkdir empty &&
	for tool in replay tdump tpack tseek gdbstub; do
		REWIND_DIR=$scratch/empty fails_one $tool &&
		grep -qx "$tool: no trace named and none recorded in $scratch/empty (it has no latest-trace): record one with rec, or name a trace directory" err || return 1
	done
'
test_expect_success 'a latest-trace pointing to a deleted trace is named' '
	mkdir gone && ln -s random-7 gone/latest-trace &&
	REWIND_DIR=$scratch/gone fails_one replay &&
	grep -qx "replay: $scratch/gone/latest-trace points to random-7, which is gone: name a trace directory" err
'
test_expect_success 'rec -o an empty directory records into it, mode 0700' '
	mkdir -m 755 emptydir &&
	run_tool rec -o emptydir "$T/random" >e.out 2>e.err &&
	test "$(stat -c %a emptydir)" = 700 &&
	run_tool replay emptydir >e.rep &&
	test_cmp_bytes e.out e.rep
'
test_expect_success 'rec -o a non-empty directory, or a file, is refused and left alone' '
	fails_one rec -o emptydir "$T/random" &&
	grep -qx "rec: emptydir: exists and is not an empty directory (rec -o takes a new or empty one)" err &&
	run_tool replay emptydir >e.rep2 && test_cmp_bytes e.out e.rep2 &&
	echo x >afile &&
	fails_one rec -o afile "$T/random" &&
	grep -qx "rec: afile: exists and is not an empty directory (rec -o takes a new or empty one)" err &&
	test "$(cat afile)" = x
'
test_expect_success 'the cpu file ends in a checksum of the bytes before it' '
	n=$(od -An -tu4 -j 12 -N4 "$trace/cpu" | tr -d " ") &&
	size=$(stat -c %s "$trace/cpu") &&
	test "$size" = $((32 + 24 * n + 8)) &&
	test "$(od -An -tu4 -j 8 -N4 "$trace/cpu" | tr -d " ")" = 3
'
test_expect_success 'a byte flipped anywhere past the magic: corrupt, naming file and offset' '
	sumoff=$((size - 8)) && ok=1 &&
	for off in 8 9 12 16 20 24 28 30 $((32 + 12)) $((sumoff - 1)) $sumoff $((size - 1)); do
		rm -rf flip && cp -a "$trace" flip && chmod u+w flip/cpu &&
		flip_byte flip/cpu $off &&
		if ! fails_one replay flip ||
		   ! grep -Eqx "replay: flip/cpu: (corrupt: the checksum at offset $sumoff does not match the bytes before it|corrupt: [0-9]+ entries \(at most 4096\)|truncated: $size bytes, its [0-9]+ entries need [0-9]+|corrupt: $size bytes, its [0-9]+ entries need [0-9]+)" err ||
		   grep -qi "lacks\|differs\|version" err; then
			echo "byte $off:"; cat err; ok=0
		fi
	done &&
	test $ok = 1
'
test_expect_success 'zeroed entries are corrupt too, not a CPU with fewer features' '
	rm -rf zero && cp -a "$trace" zero && chmod u+w zero/cpu &&
	dd if=/dev/zero of=zero/cpu bs=1 seek=24 count=48 conv=notrunc 2>/dev/null &&
	fails_one replay zero &&
	grep -qx "replay: zero/cpu: corrupt: the checksum at offset $sumoff does not match the bytes before it" err &&
	fails_one tpack zero &&
	grep -qx "tpack: zero/cpu: corrupt: the checksum at offset $sumoff does not match the bytes before it" err
'
# Version 1 is from before counting (which keeps a whole table): its
# 24-byte header, the entries, no sum, of an uncounted trace.
test_expect_success 'a version 1 cpu file (no checksum) is still read and checked' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/random" &&
	rm -rf v1 && cp -a "$trace" v1 && chmod u+w v1/cpu &&
	n=$(get_u32 "$trace/cpu" 12) && v1size=$((24 + 24 * n)) &&
	{ head -c 24 "$trace/cpu" && tail -c +33 "$trace/cpu" | head -c $((24 * n)); } >v1/cpu &&
	put_u32 v1/cpu 8 1 &&
	test "$(stat -c %s v1/cpu)" = $v1size &&
	replay_cmp "$scratch/v1" &&
	head -c $((v1size - 4)) v1/cpu >v1/cut && mv v1/cut v1/cpu &&
	fails_one replay v1 &&
	grep -qx "replay: v1/cpu: truncated: $((v1size - 4)) bytes, its $n entries need $v1size" err
'
test_done
