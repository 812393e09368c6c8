#!/bin/bash
# t1150-replay-pi-mutex.sh: threads contend for a robust priority-inheritance
# mutex. A waiter's FUTEX_LOCK_PI marks the lock word before it sleeps,
# and the owner's unlock then calls the kernel: replay makes the mark at
# the call's entry (it diverged at the owner's unlock without it). The
# waiter's end, which names it in the word, comes after the owner's
# FUTEX_UNLOCK_PI began (a robust unlock checked the word and failed).
. "$(dirname "$0")/test-lib.sh"
require_tprog pimutex

test_expect_success 'native output differs (token)' '
	differs_natively "$T/pimutex"
'
test_expect_success 'a contended PI mutex records and replays' '
	rec_replay_cmp "$T/pimutex" &&
	grep -q "^sum 1200$" rec.out &&
	grep -q "^marked yes$" rec.out &&
	grep -q "^trylock 0$" rec.out
'
test_done
