#!/bin/bash
# t2151-replay-set-tid-address.sh: set_tid_address is performed again,
# so the kernel clears the new word at the thread's end in replay too (a
# thread's waiter sees it), and returns the recorded thread id.
. "$(dirname "$0")/test-lib.sh"
require_tprog tidaddr

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/tidaddr"
'
test_expect_success 'the word cleared at the end replays' '
	rec_replay_cmp "$T/tidaddr" &&
	grep -q "^thread: word 0, returned its tid 1$" rec.out
'
test_expect_success 'fallback' '
	REWIND_NO_BUFFER=1 REWIND_NO_UFFD_WP=1 rec_replay_cmp "$T/tidaddr"
'
test_done
