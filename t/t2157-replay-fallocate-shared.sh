#!/bin/bash
# t2157-replay-fallocate-shared.sh: fallocate that punches a hole or
# zeroes a range of a file the program maps shared changes the mapping's
# bytes there only: rec records that range (and the new size), where it
# took the whole file and refused it past 64 MiB (rr's large_hole punches
# 4 KiB of a 100 GB sparse file).
. "$(dirname "$0")/test-lib.sh"
require_tprog punch

test_expect_success 'output differs between native runs' '
	differs_natively "$T/punch" "$scratch/f"
'
test_expect_success 'a hole and zeroed ranges under a shared mapping replay' '
	rec_replay_cmp "$T/punch" "$scratch/f" &&
	grep -q "^punch 0 " rec.out &&
	grep -Eq "^hole zeros zeroed (zeros|-)$" rec.out
'
test_expect_success 'the trace holds the ranges, not the file' '
	tdump "$trace" >dump &&
	grep "fallocate(" dump >calls &&
	cat calls &&
	grep -q "patch(size=1048576, 4096 bytes at 65536)" calls &&
	{ grep -q "^punch 0 zero -" rec.out ||	# (not in tmpfs)
	  grep -q "patch(size=1048576, 8192 bytes at 131072)" calls; }
'
test_done
