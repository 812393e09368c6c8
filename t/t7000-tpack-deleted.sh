#!/bin/bash
# t7000-tpack-deleted.sh: a trace holding its program by path only (as across
# filesystems) is refused by name, suggesting tpack, once the program is
# deleted; packed, it replays. A hard link (one filesystem) keeps it whole.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

# A private copy, so that deleting it harms nothing.
fresh_prog () {
	mkdir -p "$scratch/bin" && cp "$T/random" "$scratch/bin/myrandom"
}

test_expect_success 'output differs between native runs' '
	differs_natively "$T/random"
'
test_expect_success 'a private copy of the program records and replays' '
	fresh_prog &&
	rec_replay_cmp "$scratch/bin/myrandom" &&
	test -s "$trace/cpu"
'
test_expect_success 'rec hardlinked it, so deleting it is harmless' '
	ino=$(stat -c %i "$scratch/bin/myrandom") &&
	ls -i "$trace/files" | grep -q "^ *$ino " &&
	rm "$scratch/bin/myrandom" &&
	replay_cmp
'
test_expect_success 'held by path only, it replays while the program is there' '
	fresh_prog &&
	rec_replay_cmp "$scratch/bin/myrandom" &&
	rm -f "$trace"/files/* &&
	replay_cmp
'
test_expect_success 'and is refused by name once the program is deleted' '
	rm "$scratch/bin/myrandom" &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: $scratch/bin/myrandom: gone since recording; run tpack on the trace while the original files are intact$" &&
	test ! -s out
'
test_expect_success 'tpack on it names the file and fails, adding the rest' '
	run_tool tpack "$trace" >pack.out 2>pack.err
	st=$? &&
	expect_status $st 1 &&
	grep -q "^tpack: $scratch/bin/myrandom: gone since recording, and the trace holds no copy; it cannot be added$" pack.err &&
	grep -q "^tpack: 1 file could not be added; " pack.err &&
	grep -q "^tpack: added .*libc" pack.out &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "myrandom: gone since recording"
'
test_expect_success 'recorded again and packed, it replays with the program deleted' '
	fresh_prog &&
	rec_replay_cmp "$scratch/bin/myrandom" &&
	rm -f "$trace"/files/* &&
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: added $scratch/bin/myrandom ([0-9]* bytes)$" pack.out &&
	rm "$scratch/bin/myrandom" &&
	replay_cmp
'

# rec across filesystems for real, when /dev/shm is another one.
shm=$(mktemp -d /dev/shm/rewind-t7000.XXXXXX 2>/dev/null) &&
	[ "$(stat -c %d "$shm")" != "$(stat -c %d "$scratch")" ] &&
	test_set_prereq SHM

test_expect_success SHM 'a trace on another filesystem holds no file, yet replays' '
	fresh_prog &&
	trace=$shm/trace &&
	(cd "$scratch" && run_tool rec -o "$trace" -- "$scratch/bin/myrandom") \
		>rec.out 2>rec.err.raw &&
	echo 0 >rec.status &&
	strip_rec_line rec.err.raw >rec.err &&
	test -d "$trace/files" &&
	test -z "$(ls "$trace/files")" &&
	replay_cmp
'
test_expect_success SHM 'tpack fills it, and it replays with the program deleted' '
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: added $scratch/bin/myrandom " pack.out &&
	rm "$scratch/bin/myrandom" &&
	replay_cmp
'
test_expect_success SHM 'clean /dev/shm' '
	rm -rf "$shm"
'
test_done
