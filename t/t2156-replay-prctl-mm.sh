#!/bin/bash
# t2156-replay-prctl-mm.sh: prctl answers written through a pointer
# replay (PR_GET_*, and PR_SET_MM_MAP_SIZE, which writes the size of
# struct prctl_mm_map); PR_SET_MM setting a field is performed again
# when it succeeded, answered when refused.
. "$(dirname "$0")/test-lib.sh"
require_tprog prctlget

test_expect_success 'native output differs (pid)' '
	differs_natively "$T/prctlget"
'
test_expect_success 'prctl answers replay' '
	rec_replay_cmp "$T/prctlget" &&
	grep -q "^PR_GET_NAME 0 prctlget$" rec.out &&
	grep -q "^PR_GET_TID_ADDRESS 0 1$" rec.out &&
	grep -q "^PR_SET_MM_MAP_SIZE 0 104$" rec.out &&
	grep -q "^PR_SET_MM_BRK .*, brk same$" rec.out
'
test_done
