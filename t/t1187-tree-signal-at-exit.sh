#!/bin/bash
# t1187-tree-signal-at-exit.sh: sigflag.c: a thread sends its process
# SIGUSR1 and SIGUSR2, which main takes, then sets the flag that ends
# main's loop of buffered reads (rr's async_signal_syscalls2). Signals
# that come while a thread waits its turn at a call's exit reach it there
# when it runs again, before any of its own code, as the kernel delivers
# them on its way out; rec used to hold them for the next call, so main
# left its loop on the flag with the last two not taken (half the
# recordings, and every one once woken threads ran first). Three
# recordings, each replayed byte for byte.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigflag

test_expect_success 'output differs between native runs' '
	differs_natively "$T/sigflag"
'
for i in 1 2 3; do
	test_expect_success "recording $i: every signal taken in the loop, as natively; replay matches" '
		rec_replay_cmp "$T/sigflag" &&
		grep -q "usr1 10 usr2 10 of 10" "$scratch/rec.out"
	'
done
test_expect_success 'uncounted (REWIND_NO_COUNT=1): the same' '
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/sigflag" &&
	grep -q "usr1 10 usr2 10 of 10" "$scratch/rec.out"
'
test_done
