#!/bin/bash
# t5012-trace-hash-cache.sh: the content hash of a large mapped file is
# kept in the cache (hashcache.h) by its inode, size and times, so rec and
# replay need not read it again; a rewrite in place that keeps its size
# and modification time still moves its change time, and replay refuses
# the file as without the cache. (A hash is kept only for a file whose
# modification time is older than the kernel leaves a page dirty, 42 s
# by default: the file's is set to 2020. Not for one in tmpfs.)
. "$(dirname "$0")/test-lib.sh"
require_tprog mmap-data
export XDG_CACHE_HOME=$scratch/cache
unset REWIND_NO_CODE_CACHE

entries () { ls "$XDG_CACHE_HOME/rewind" 2>/dev/null | grep -c "^hash-"; }

test_expect_success 'output differs between native runs' '
	head -c 3000000 /dev/urandom >data &&
	touch -d 2020-01-01 data &&
	differs_natively "$T/mmap-data" "$scratch/data"
'
test_expect_success 'REWIND_NO_CODE_CACHE=1: no hash is kept' '
	REWIND_NO_CODE_CACHE=1 rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" = 0
'
test_expect_success 'a settled file: its hash is kept (across rec.s link), replay matches' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" -ge 1 &&
	ls "$XDG_CACHE_HOME/rewind" >before &&
	replay_cmp && replay_cmp &&
	ls "$XDG_CACHE_HOME/rewind" >after &&
	test_cmp_bytes before after
'
# Removing the trace drops the file's link count, which moves its change
# time alone: the next recording takes the kept hash and does not read
# the file (rec's reads and its program's, reaped, count in the shell's
# rchar: under 3 MB, the file's size, only without a hash taken again).
test_expect_success 'its trace removed (a link fewer, a new change time): not read again' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	rm -rf "$trace" &&
	sh -c "timeout -k 5 $REWIND_TIMEOUT $REWIND_BIN/rec -o $scratch/again -- $T/mmap-data \
		$scratch/data >$scratch/rec.out 2>$scratch/rec.err.raw; echo \$? >$scratch/rec.status
		grep ^rchar /proc/\$\$/io" >io &&
	cat io &&
	test "$(awk "{ print \$2 }" io)" -lt 3000000 &&
	strip_rec_line rec.err.raw >rec.err &&
	replay_cmp "$scratch/again"
'
# (The libraries of 64 KiB or more, libc, get entries of their own.)
# (Its modification time an hour ahead, so that it stays fresh however
# long the test takes.)
test_expect_success 'a fresh file (modified now) is hashed each time, not kept' '
	rm -rf "$XDG_CACHE_HOME" &&
	head -c 3000000 /dev/urandom >fresh &&
	touch -d "@$(($(date +%s) + 3600))" fresh &&
	rec_replay_cmp "$T/mmap-data" "$scratch/fresh" &&
	n=$(entries) &&
	rm -rf "$XDG_CACHE_HOME" &&
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" = $((n + 1))
'
test_expect_success 'a file in tmpfs (/dev/shm) is not kept, however old' '
	if test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs; then
		rm -rf "$XDG_CACHE_HOME" &&
		shm=$(mktemp /dev/shm/rewind-t5012.XXXXXX) &&
		{ cp data "$shm" && touch -d 2020-01-01 "$shm" &&
		  rec_replay_cmp "$T/mmap-data" "$shm"; ok=$?; rm -f "$shm"; test $ok = 0; } &&
		n=$(entries) &&
		rm -rf "$XDG_CACHE_HOME" &&
		rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
		test "$(entries)" = $((n + 1))
	fi
'
test_expect_success 'rewritten in place, size and mtime kept: refused all the same' '
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" -ge 1 &&
	head -c 100 /dev/urandom | dd of=data bs=1 seek=1000 conv=notrunc 2>/dev/null &&
	touch -d 2020-01-01 data &&
	test "$(stat -c %s.%Y data)" = "3000000.$(date -d 2020-01-01 +%s)" &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: .*/files/[0-9a-f]{16}: contents differ from the recorded file $scratch/data \(hash differs\)" &&
	test ! -s out
'
test_done
