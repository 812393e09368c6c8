#!/bin/bash
# t2036-replay-map-same.sh: a private file mapping made again over a
# mapping of the same file at the same offset (the dynamic loader's
# segments over its first mapping of a library) replays as an mprotect
# when none of its pages was copied, and is made again when one was
# written, or when the offset differs (REWIND_NO_MAP_SAME=1: always).
. "$(dirname "$0")/test-lib.sh"
require_tprog mapsame
command -v strace >/dev/null 2>&1 || skip_all "no strace"

test_expect_success 'mapsame differs natively (random file)' '
	differs_natively "$T/mapsame"
'
test_expect_success 'mapsame replays byte for byte' '
	rec_replay_cmp "$T/mapsame" &&
	grep -q "^again [0-9a-f]* 1$" rec.out &&
	grep -q "^moved [0-9a-f]* 1$" rec.out
'
test_expect_success 'and made again every time with REWIND_NO_MAP_SAME=1' '
	REWIND_NO_MAP_SAME=1 replay_cmp
'
# replay reads the process pagemap only to look for copied pages of a
# mapping made again at its offset: after it opened its copy of lib,
# three times here ("same", "again" and "text"), none when it makes them
# all again. The mapping at an address is asked of the kernel
# (PROCMAP_QUERY, Linux 6.11) or read from the maps.
pagemaps_after_lib () {
	awk -v h="$hash" 'index($0, h) { seen = 1 } seen && /\/proc\/[0-9]+\/pagemap/ { n++ }
		END { print n + 0 }' "$1"
}
test_expect_success 'replay looked at the pages of the three made at their offset' '
	hash=$(run_tool tdump "$trace" | grep -m1 "mmap(.*file=\"[^\"]*/lib\"" |
		sed "s/.* hash=\([0-9a-f]*\).*/\1/") &&
	test -n "$hash" &&
	REWIND_NO_MAP_SAME=0 run_tool strace -o on.st -e trace=openat replay "$trace" >/dev/null 2>&1 &&
	REWIND_NO_MAP_SAME=1 run_tool strace -o off.st -e trace=openat replay "$trace" \
		>/dev/null 2>&1 &&
	on=$(pagemaps_after_lib on.st) && off=$(pagemaps_after_lib off.st) &&
	echo "pagemap opens after the copy of lib: $on, $off with REWIND_NO_MAP_SAME=1" &&
	test "$on" = 3 && test "$off" = 0
'
test_expect_success 'the same with the maps read line by line (REWIND_NO_PROCMAP_QUERY=1)' '
	REWIND_NO_MAP_SAME=0 REWIND_NO_PROCMAP_QUERY=1 replay_cmp &&
	REWIND_NO_MAP_SAME=0 REWIND_NO_PROCMAP_QUERY=1 run_tool strace -o lines.st -e trace=openat \
		replay "$trace" >/dev/null 2>&1 &&
	test "$(pagemaps_after_lib lines.st)" = 3
'
test_done
