#!/bin/bash
# t9002-tseek-bad.sh: a damaged checkpoint, page store or index, or one
# made for another recording, is refused by name in one line; replay
# then starts from the beginning and still replays exactly.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record, note replay --to N, index' '
	rec_replay_cmp "$T/lines" 20 &&
	tr=$trace &&
	run_tool tdump "$tr" >dump &&
	n=$(awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump | sed -n 15p) &&
	run_tool replay --to $n "$tr" >want 2>want.err &&
	test ! -s want.err &&
	run_tool tseek --every 5 "$tr" &&
	cp -a "$tr/seek" good &&
	cp=$(run_tool tseek --list "$tr" | awk -v n=$n "NR > 1 && \$1 <= n + 0 { e = \$1 } END { print e }") &&
	test -f "$tr/seek/cp-$cp"
'
# check_fallback PATTERN: replay --to $n says PATTERN in one line and
# prints what a replay from the start printed.
check_fallback () {
	run_tool replay --to $n "$tr" >got 2>got.err &&
	one_line_error got.err "^replay: .*$1.*; replaying from the start\$" &&
	test_cmp_bytes want got
}
test_expect_success 'a flipped byte in a checkpoint is refused by name' '
	flip_byte "$tr/seek/cp-$cp" 300 &&
	check_fallback "seek/cp-$cp: damaged"
'
test_expect_success 'a flipped byte in the page store is refused by name' '
	rm -rf "$tr/seek" && cp -a good "$tr/seek" &&
	size=$(stat -c %s "$tr/seek/pages") &&
	for off in 100 $((size / 3)) $((size / 2)) $((size - 20)); do
		flip_byte "$tr/seek/pages" $off || return 1
	done &&
	check_fallback "seek/pages: damaged page at offset [0-9]+"
'
test_expect_success 'a truncated index is refused by name' '
	rm -rf "$tr/seek" && cp -a good "$tr/seek" &&
	size=$(stat -c %s "$tr/seek/index") &&
	truncate -s $((size - 20)) "$tr/seek/index" &&
	check_fallback "seek/index: truncated or damaged" &&
	run_tool tseek --list "$tr" >l 2>l.err
	expect_status $? 125 &&
	one_line_error l.err "^tseek: .*seek/index: truncated or damaged"
'
test_expect_success 'a flipped byte in the index is refused by name' '
	rm -rf "$tr/seek" && cp -a good "$tr/seek" &&
	flip_byte "$tr/seek/index" 40 &&
	check_fallback "seek/index: damaged \\(checksum mismatch\\)"
'
test_expect_success 'a missing checkpoint file is refused by name' '
	rm -rf "$tr/seek" && cp -a good "$tr/seek" &&
	rm "$tr/seek/cp-$cp" &&
	check_fallback "seek/cp-$cp: No such file"
'
test_expect_success 'an index made for another recording is ignored' '
	rec_prog "$T/lines" 20 &&
	rm -rf "$trace/seek" && cp -a good "$trace/seek" &&
	run_tool replay --to $n "$trace" >other 2>other.err &&
	one_line_error other.err "seek/index: made for another events file \\(stale\\); run tseek again; replaying from the start" &&
	run_tool replay --to $n "$trace" 2>/dev/null | sed -n "/^-- stopped/,\$p" >o1 &&
	rm -rf "$trace/seek" &&
	run_tool replay --to $n "$trace" 2>/dev/null | sed -n "/^-- stopped/,\$p" >o2 &&
	test_cmp_bytes o2 o1
'
test_expect_success 'a plain replay ignores the index altogether' '
	rm -rf "$tr/seek" && cp -a good "$tr/seek" && flip_byte "$tr/seek/index" 40 &&
	run_tool replay "$tr" >plain 2>plain.err &&
	test ! -s plain.err &&
	test $(grep -c "^line " plain) = 20
'
test_done
