#!/bin/bash
# t7003-tpack-changed.sh: a mapped data file changed since recording is
# refused by name, held as a hard link or by path only; tpack will not pack
# it and leaves the trace whole; once packed, the original may change. One
# the program held open for writing was copied: it may change at once.
. "$(dirname "$0")/test-lib.sh"
require_tprog mmap-data

# rewrite_in_place FILE: new bytes in the same inode.
rewrite_in_place () {
	head -c 100 /dev/urandom | dd of="$1" bs=1 seek=1000 conv=notrunc 2>/dev/null
}
# replace_file FILE: the path names a new file with new bytes.
replace_file () {
	rm -f "$1" && head -c 30000 /dev/urandom >"$1"
}
test_expect_success 'output differs between native runs' '
	head -c 30000 /dev/urandom >data &&
	differs_natively "$T/mmap-data" "$scratch/data"
'
test_expect_success 'recorded with a hard link, a replaced file does not matter' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	replace_file data &&
	replay_cmp
'
test_expect_success 'a file rewritten in place is refused, naming it' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	rewrite_in_place data &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: .*/files/[0-9a-f]{16}: contents differ from the recorded file $scratch/data \(hash differs\); it is a hard link to a file changed in place since recording$" &&
	test ! -s out
'
test_expect_success 'tpack cannot pack it, says so and leaves the trace alone' '
	ino=$(stat -c %i data) &&
	run_tool tpack "$trace" >pack.out 2>pack.err
	st=$? &&
	expect_status $st 1 &&
	grep -q "^tpack: $scratch/data: changed since recording (hash differs), and so did the trace.s hard link to it; it cannot be added$" pack.err &&
	grep -q "^tpack: 1 file could not be added; " pack.err &&
	test "$(wc -l <pack.err)" = 2 &&
	ls -ai "$trace/files" >after &&
	grep -q "^ *$ino " after &&
	! grep -q "\.tpack-" after
'
test_expect_success 'held by path only, a changed file is refused, suggesting tpack' '
	replace_file data &&
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	rm -f "$trace"/files/* &&
	replay_cmp &&
	replace_file data &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: $scratch/data: changed since recording \((size|hash) differs\); run tpack on the trace while the original files are intact$" &&
	test ! -s out
'
test_expect_success 'tpack refuses the changed file and leaves no copy of it' '
	run_tool tpack "$trace" >pack.out 2>pack.err
	st=$? &&
	expect_status $st 1 &&
	grep -q "^tpack: $scratch/data: changed since recording (hash differs), and the trace holds no copy; it cannot be added$" pack.err &&
	! ls -a "$trace/files" | grep -q "\.tpack-" &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: $scratch/data: changed since recording"
'
test_expect_success 'a vanished file is named by tpack too' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	rm -f "$trace"/files/* data &&
	run_tool tpack "$trace" >pack.out 2>pack.err
	st=$? &&
	expect_status $st 1 &&
	grep -q "^tpack: $scratch/data: gone since recording, and the trace holds no copy; it cannot be added$" pack.err
'
test_expect_success 'after tpack the original may change or go' '
	head -c 30000 /dev/urandom >data &&
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	grep -q "^tpack: added $scratch/data (30000 bytes)$" pack.out &&
	rewrite_in_place data &&
	replay_cmp &&
	rm data &&
	replay_cmp
'
test_expect_success 'a damaged packed copy is refused by its name in files/' '
	f=$(ls "$trace"/files/* | head -n 1) &&
	chmod u+w "$f" && flip_byte "$f" 10 &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: $f: contents differ from the recorded file /.* \(hash differs\)$"
'
test_expect_success 'mapped from a descriptor open for writing, it is copied: rewritten, no matter' '
	head -c 30000 /dev/urandom >data &&
	rec_replay_cmp "$T/mmap-data" "+$scratch/data" &&
	grep -q "^$scratch/data: 30000 bytes" rec.out &&
	test "$(stat -c %h data)" = 1 &&
	rewrite_in_place data &&
	replay_cmp
'
test_done
