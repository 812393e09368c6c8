#!/bin/bash
# t5012-trace-hash-cache.sh: the content hash of a large mapped file is
# kept in the cache (hashcache.h) by its inode, size and times, so rec and
# replay need not read it again; a rewrite in place that keeps its size
# and modification time still moves its change time, and replay refuses
# the file as without the cache. (A hash is kept only for a file whose
# change time is 2 s old: the test waits that out, twice.)
. "$(dirname "$0")/test-lib.sh"
require_tprog mmap-data
export XDG_CACHE_HOME=$scratch/cache
unset REWIND_NO_CODE_CACHE

entries () { ls "$XDG_CACHE_HOME/rewind" 2>/dev/null | grep -c "^hash-"; }

test_expect_success 'output differs between native runs' '
	head -c 3000000 /dev/urandom >data &&
	differs_natively "$T/mmap-data" "$scratch/data"
'
test_expect_success 'REWIND_NO_CODE_CACHE=1: no hash is kept' '
	sleep 3 &&
	REWIND_NO_CODE_CACHE=1 rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" = 0
'
test_expect_success 'a settled file: its hash is kept, and replay matches with it' '
	sleep 3 &&
	rec_replay_cmp "$T/mmap-data" "$scratch/data" &&
	test "$(entries)" -ge 1 &&
	sleep 3 &&
	replay_cmp && replay_cmp
'
test_expect_success 'rewritten in place, size and mtime kept: refused all the same' '
	touch -r data ref &&
	head -c 100 /dev/urandom | dd of=data bs=1 seek=1000 conv=notrunc 2>/dev/null &&
	touch -r ref data &&
	test "$(stat -c %s.%Y data)" = "3000000.$(stat -c %Y ref)" &&
	run_tool replay "$trace" >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "^replay: .*/files/[0-9a-f]{16}: contents differ from the recorded file $scratch/data \(hash differs\)" &&
	test ! -s out
'
test_done
