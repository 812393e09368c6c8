#!/bin/bash
# t2030-replay-shmap.sh: two MAP_SHARED mappings of one file in one
# process alias in replay as when recorded (replay maps one emulated copy
# of the file for both): stores, write, pwrite, ftruncate, mremap, and
# SIGBUS past the file's end, appending writes.
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
test_expect_success 'tdump shows the emulated mappings and the patches' '
	run_tool tdump "$trace" >dump &&
	test $(grep -c "mmap(.*MAP_SHARED.* emulated$" dump) = 3 &&
	grep -Eq "pwrite64\(3, \"g[0-9a-f]{8}\", 9, 5000\) = 9 patch\(size=5009, 9 bytes at 5000\)$" dump &&
	grep -q "ftruncate(3, 4096) = 0 patch(size=4096, 0 bytes at 0)$" dump &&
	grep -q "write(4, \"A\", 1) = 1 patch(size=8193, 1 bytes at 8192)$" dump &&
	grep -q "pwrite64(4, \"P\", 1, 0) = 1 patch(size=8194, 1 bytes at 8193)$" dump
'
test_done
