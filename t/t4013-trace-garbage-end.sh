#!/bin/bash
# t4013-trace-garbage-end.sh: bytes appended after the last chunk of a
# finished trace (a few odd bytes, or a block that looks like a chunk
# header) are damage: tdump, replay, tpack and tseek each refuse with the
# same one line naming the events file and the offset, and exit 125.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 5 &&
	size=$(stat -c %s "$trace/events") &&
	last=$(tdump "$trace" | tail -n 1 | cut -d" " -f1) &&
	echo "events is $size bytes, last event $last" &&
	test -n "$last"
'

# garbage_check TOOL KIND: TOOL on a copy of the trace with garbage of
# KIND (bytes, or header) appended.
garbage_check () {
	rm -rf bad && cp -r "$trace" bad &&
	case $2 in
	bytes)
		printf "\\001\\377garb\\000age\\012" >>bad/events ;;
	header)
		# RWCK, csize 8, rsize 24, nrec 1, first = the next event,
		# then 8 bytes: a chunk header in sequence, but no chunk.
		printf RWCK >>bad/events &&
		put_u32 bad/events $((size + 4)) 8 &&
		put_u32 bad/events $((size + 8)) 24 &&
		put_u32 bad/events $((size + 12)) 1 &&
		put_u32 bad/events $((size + 16)) $((last + 1)) &&
		put_u32 bad/events $((size + 20)) 0 &&
		printf 12345678 >>bad/events ;;
	esac &&
	timeout 60 "$1" bad >out 2>err
	st=$?
	echo "$1 with $2 appended: status $st"
	cat err
	expect_status $st 125 &&
	one_line_error err "^$1: bad/events: garbage after the last chunk at offset $size\$"
}

for kind in bytes header; do
	for tool in tdump replay tpack tseek; do
		test_expect_success "$tool refuses $kind after the last chunk" "
			garbage_check $tool $kind
		"
	done
done
test_expect_success 'tseek left no index behind' '
	test ! -e bad/seek && test ! -e bad/seek.new
'
test_done
