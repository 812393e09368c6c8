#!/bin/bash
# t2030-replay-shmap.sh: two MAP_SHARED mappings of one file in one
# process alias in replay as when recorded (replay maps one emulated copy
# of the file for both): stores, write, pwrite, ftruncate, mremap, and
# SIGBUS past the file's end.
. "$(dirname "$0")/test-lib.sh"
require_tprog shmap

test_expect_success 'output differs between native runs' '
	differs_natively "$T/shmap"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/shmap"
'
test_expect_success 'the program saw its mappings alias' '
	grep -q "^all aliased$" rec.out &&
	grep -q "^past the end: SIGBUS$" rec.out
'
test_expect_success 'the trace names the emulated file' '
	run_tool tdump "$trace" >dump &&
	grep -q "mmap(.*MAP_SHARED" dump
'
test_done
