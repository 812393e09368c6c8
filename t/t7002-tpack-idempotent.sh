#!/bin/bash
# t7002-tpack-idempotent.sh: tpack says what it adds, one line per file
# and a total, stores a content once however many paths it had, changes
# nothing under -n, and a second run adds nothing and says so.
. "$(dirname "$0")/test-lib.sh"
require_tprog mmap-data

# inodes TRACE: the names and inode numbers in files/, hidden ones too.
# (Not link counts: other traces link the same system files meanwhile.)
inodes () {
	(cd "$1/files" && ls -ai | sort -k2)
}

test_expect_success 'output differs between native runs' '
	head -c 50000 /dev/urandom >one &&
	differs_natively "$T/mmap-data" "$scratch/one"
'
test_expect_success 'record a program mapping two paths with the same bytes' '
	cp one two &&
	rec_replay_cmp "$T/mmap-data" "$scratch/one" "$scratch/two" &&
	run_tool tdump --json "$trace" >json &&
	grep -o "\"hash\":\"[0-9a-f]*\"" json | sort -u >hashes &&
	h1=$(grep -o "\"path\":\"$scratch/one\",\"size\":[0-9]*,\"hash\":\"[0-9a-f]*" json | sed "s/.*\"//" | sort -u) &&
	h2=$(grep -o "\"path\":\"$scratch/two\",\"size\":[0-9]*,\"hash\":\"[0-9a-f]*" json | sed "s/.*\"//" | sort -u) &&
	test -n "$h1" && test "$h1" = "$h2" &&
	test -f "$trace/files/$h1" &&
	test "$(ls "$trace/files" | wc -l)" -le "$(wc -l <hashes)"
'
test_expect_success 'tpack -n says what it would add and changes nothing' '
	inodes "$trace" >before &&
	run_tool tpack -n "$trace" >dry.out 2>dry.err &&
	test ! -s dry.err &&
	grep -q "^tpack: would add $scratch/one (50000 bytes)$" dry.out &&
	grep -q "^tpack: [0-9]* files, .* to add$" dry.out &&
	inodes "$trace" >after &&
	test_cmp_bytes before after
'
test_expect_success 'tpack adds each content once, one line each, and a total' '
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep "^tpack: added " pack.out >added &&
	test "$(wc -l <added)" = "$(wc -l <hashes)" &&
	grep -q "^tpack: added $scratch/one (50000 bytes)$" added &&
	! grep -q "/two " added &&
	n=$(wc -l <added) &&
	grep -Eq "^tpack: $n files, [0-9]+\.[0-9] (KiB|MiB) added$" pack.out &&
	test "$(wc -l <pack.out)" = $((n + 1))
'
test_expect_success 'every copy is independent and checks out' '
	find "$trace/files" -type f -links +1 >linked &&
	test ! -s linked &&
	replay_cmp
'
test_expect_success 'a second tpack adds nothing and says so' '
	inodes "$trace" >before &&
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	echo "tpack: nothing to add" >expect &&
	test_cmp_bytes expect pack.out &&
	inodes "$trace" >after &&
	test_cmp_bytes before after
'
test_expect_success 'tpack -q says nothing' '
	run_tool tpack -q "$trace" >pack.out 2>pack.err &&
	test ! -s pack.out &&
	test ! -s pack.err
'
test_expect_success 'a content whose first path went is packed from another' '
	rec_replay_cmp "$T/mmap-data" "$scratch/one" "$scratch/two" &&
	rm -f "$trace"/files/* &&
	mv one one.kept &&
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: added $scratch/two (50000 bytes)$" pack.out &&
	! grep -q "/one" pack.out &&
	replay_cmp &&
	mv one.kept one
'
test_expect_success 'tpack with no argument packs the latest trace' '
	(cd run.1 && run_tool rec -- "$T/mmap-data" "$scratch/one") >/dev/null 2>&1 &&
	test -L "$REWIND_DIR/latest-trace" &&
	run_tool tpack >pack.out 2>pack.err &&
	grep -q "^tpack: added $scratch/one " pack.out &&
	run_tool tpack >pack.out &&
	grep -qx "tpack: nothing to add" pack.out
'
test_done
