#!/bin/bash
# t2131-replay-proc-mem.sh: a write through /proc/self/mem changes the
# program's memory: rec saves the bytes as the call's output and replay
# writes them back (replay answered the write without them, and the
# program printed memory that differed). A child's write into its
# parent's memory cannot be replayed: rec stops and says so.
. "$(dirname "$0")/test-lib.sh"
require_tprog procmem

test_expect_success 'native output differs (token)' '
	differs_natively "$T/procmem"
'
test_expect_success 'writes into its own memory replay' '
	rec_replay_cmp "$T/procmem" &&
	tok=$(sed -n "s/^token //p" rec.out) &&
	grep -q "^pwrite 8: var $tok$" rec.out &&
	grep -q "^pwritev 16: pair " rec.out &&
	grep -q "^into a read-only page [0-9]*: forced $tok$" rec.out
'
test_expect_success 'a write into another process stops rec with a reason' '
	run_tool rec -o other "$T/procmem" child >out 2>err
	expect_status $? 125 &&
	grep -q "^rec: the program wrote through /proc/[0-9]*/mem into memory that is not its own" err
'
test_done
