#!/bin/bash
# t7001-tpack-move.sh: a packed trace holds independent copies of all its
# files and nothing that names its own place, so it replays after being
# moved to another directory with the original files gone.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

test_expect_success 'output differs between native runs' '
	differs_natively "$T/random"
'
test_expect_success 'record a private copy of the program and pack the trace' '
	mkdir bin && cp "$T/random" bin/myrandom &&
	rec_replay_cmp "$scratch/bin/myrandom" &&
	run_tool tpack "$trace" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: [0-9]* files, .* added$" pack.out
'
test_expect_success 'files/ holds no hard link any more' '
	find "$trace/files" -type f >all &&
	test -s all &&
	find "$trace/files" -type f -links +1 >linked &&
	test ! -s linked &&
	ls -a "$trace/files" | grep -v "^\.\.*$" | grep -Ev "^[0-9a-f]{16}$" >odd;
	test ! -s odd
'
test_expect_success 'nothing in the trace names the trace directory' '
	run_tool tdump "$trace" >dump &&
	! grep -F "$trace" dump &&
	! grep -rlF "$trace" "$trace"
'
test_expect_success 'moved elsewhere with the program deleted, it replays' '
	mkdir -p "$scratch/far/away" &&
	mv "$trace" "$scratch/far/away/moved" &&
	rm bin/myrandom &&
	replay_cmp "$scratch/far/away/moved"
'
test_expect_success 'and by a relative path from another directory' '
	(cd "$scratch/far" && run_tool replay away/moved) >out 2>err </dev/null &&
	test_cmp_bytes rec.out out &&
	test_cmp_bytes rec.err err
'
test_expect_success 'tpack of the moved trace has nothing to add' '
	run_tool tpack "$scratch/far/away/moved" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	echo "tpack: nothing to add" >expect &&
	test_cmp_bytes expect pack.out
'
test_done
