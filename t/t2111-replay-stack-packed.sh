#!/bin/bash
# t2111-replay-stack-packed.sh: replay --stack names objects by their
# recorded paths when a packed trace runs them from its own copies (and
# the executable from a copy replay removes once it runs), and finds the
# frames of a thread.
. "$(dirname "$0")/test-lib.sh"
require_tprog stack threads

interp=$(readelf -l "$T/stack" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
command -v cc >/dev/null 2>&1 && [ -r "$interp" ] ||
	skip_all "needs cc, readelf and the system's ELF interpreter"

test_expect_success 'a program with its own interpreter, recorded and packed' '
	cp "$interp" "$scratch/myld.so" &&
	cp "$TEST_DIR/prog/stack.c" s.c &&
	cc -g -O1 -o p s.c -Wl,--dynamic-linker="$scratch/myld.so" &&
	differs_natively "$scratch/p" &&
	rec_replay_cmp "$scratch/p" &&
	run_tool tpack "$trace" >pack.out 2>&1 &&
	rm "$scratch/myld.so"
'
test_expect_success 'the stack of the write, with the interpreter gone' '
	run_tool replay --stack-filter write "$trace" >w.out 2>w.err &&
	grep -q "^  #1 .* bar+0x[0-9a-f]* ($scratch/p) at .*s.c:" w.out &&
	grep -q "^  #3 .* main+0x[0-9a-f]* ($scratch/p)" w.out
'
test_expect_success 'the interpreter by its recorded path, not the trace copy' '
	run_tool replay --stack "$trace" >all.out 2>all.err &&
	grep -q "($scratch/myld.so)" all.out &&
	! grep -q "/files/\|rwi-" all.out
'
test_expect_success 'a thread: the worker that wrote, under start_thread' '
	rec_replay_cmp "$T/threads" &&
	run_tool replay --stack-filter write "$trace" >t.out 2>t.err &&
	grep -A2 "write(1, \"thread" t.out | grep -q "^  #1 .* worker+0x" &&
	grep -q "start_thread" t.out
'
test_done
