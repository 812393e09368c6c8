#!/bin/bash
# t2162-rec-filter-eacces.sh: rec sets no_new_privs in the program for
# its own seccomp filter, which let the program install a filter of its
# own without CAP_SYS_ADMIN where the kernel says EACCES without rec
# (LTP's prctl02). rec answers such a call EACCES itself; with the
# program's own no_new_privs it is made.
. "$(dirname "$0")/test-lib.sh"
require_tprog filteracc

test_expect_success 'output differs between native runs' '
	differs_natively "$T/filteracc"
'
test_expect_success 'EACCES without no_new_privs, as natively; the trace replays' '
	rec_replay_cmp "$T/filteracc" &&
	cat rec.out &&
	grep -q "^no_new_privs 0$" rec.out &&
	grep -q "^filter without no_new_privs: -1 EACCES$" rec.out &&
	grep -q "^seccomp() without no_new_privs: -1 EACCES$" rec.out &&
	grep -q "^filter with no_new_privs: 0$" rec.out
'
test_done
