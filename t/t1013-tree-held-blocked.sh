#!/bin/bash
# t1013-tree-held-blocked.sh: a signal that comes while the program
# computes is delivered there, as natively. Held for a syscall instead
# (REWIND_HOLD_SIGNALS=1, and inside the syscall buffer's calls), when the
# program blocks it first and then computes long, rec does not deliver it
# where it stops the program (the kernel would only queue it again) but
# where the program lets it in, and replay finds it there (make -j2's
# SIGCHLD diverged so).
. "$(dirname "$0")/test-lib.sh"
require_tprog heldmask

test_expect_success 'heldmask differs natively (token)' '
	differs_natively "$T/heldmask"
'
test_expect_success 'by default it comes while the program spins, before the block' '
	REWIND_HOLD_SIGNALS=0 rec_replay_cmp "$T/heldmask" &&
	grep -Eq "^handler ran in phase 0, turns [0-9]+, token [0-9a-f]{8}$" rec.out
'
test_expect_success 'held: heldmask replays byte for byte' '
	REWIND_HOLD_SIGNALS=1 rec_replay_cmp "$T/heldmask" &&
	grep -Eq "^handler ran in phase [0-9], turns [0-9]+, token [0-9a-f]{8}$" rec.out
'
# Under rec a round may end with the signal delivered before the block
# (heldmask.c says why) and the program tries again: the last block is
# the round that counts. There the thread is stopped while it computes
# (phase 1), and the signal waits for the call that unblocks it.
test_expect_success 'held: SIGUSR1 is delivered at the call that unblocks it' '
	run_tool tdump "$trace" >dump &&
	awk "/ syscall rt_sigprocmask\\(SIG_BLOCK, / { n = NR } { l[NR] = \$0 }
	     END { for (i = n; n && i <= NR; i++) print l[i] }" dump >last &&
	grep -q " preempt at " last &&
	grep -B1 -E "^[0-9]+ [0-9]+ signal SIGUSR1 " last >at &&
	cat at &&
	test $(grep -c " signal SIGUSR1 " at) = 1 &&
	head -n 1 at | grep -q "rt_sigprocmask(SIG_UNBLOCK, " &&
	grep -q "^handler ran in phase 2," rec.out
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_done
