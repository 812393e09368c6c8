#!/bin/bash
# t5002-trace-corrupt.sh: flipping a byte of the events file anywhere that
# matters (magic, version, chunk header, compressed data, checksum) gives
# exit 125 and one line naming the file, never a crash or a hang.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 20 &&
	size=$(stat -c %s "$trace/events") &&
	echo "events is $size bytes"
'

# flip_check TOOL OFFSET: TOOL on a copy of the trace with byte OFFSET flipped.
flip_check () {
	rm -rf bad && cp -r "$trace" bad &&
	flip_byte bad/events "$2" &&
	timeout 20 "$1" bad >out 2>err
	st=$?
	echo "$1 on events with byte $2 flipped: status $st"
	cat err
	expect_status $st 125 &&
	one_line_error err "bad/events"
}

# 0-7 magic, 8 version, 16 chunk magic, 20 compressed size, 24 raw size,
# 28 record count, 32 first event, 40 on: the zstd frame.
for off in 0 5 8 9 16 19 20 22 24 27 28 32 39 40 44; do
	test_expect_success "replay refuses byte $off flipped" "flip_check replay $off"
	test_expect_success "tdump refuses byte $off flipped" "flip_check tdump $off"
done
test_expect_success 'flips in the compressed data and its checksum' '
	ok=1 &&
	for off in $((size / 3)) $((size / 2)) $((size - 5)) $((size - 1)); do
		flip_check replay $off || ok=0
		flip_check tdump $off || ok=0
	done &&
	test $ok = 1
'
test_expect_success 'tdump refuses garbage after the last chunk' '
	rm -rf bad && cp -r "$trace" bad &&
	printf "RWCKgarbage-garbage-garbage" >>bad/events &&
	timeout 20 tdump bad >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "bad/events"
'
test_done
