#!/bin/bash
# t2162-rec-filter-eacces.sh: rec sets no_new_privs in the program for
# its own seccomp filter, which let the program install a filter of its
# own without CAP_SYS_ADMIN where the kernel says EACCES without rec
# (LTP's prctl02), and restrict itself with Landlock where it says EPERM
# (LTP's landlock03). rec answers such calls itself; with the program's
# own no_new_privs they are made.
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
	grep -q "^filter with no_new_privs: 0$" rec.out &&
	grep -Eq "^landlock: none here$|^landlock without no_new_privs: -1 EPERM$" rec.out &&
	grep -Eq "^landlock: none here$|^landlock with no_new_privs: 0$" rec.out
'
test_expect_success 'the same answers as natively' '
	"$T/filteracc" | tail -n +2 >nat.tail &&
	tail -n +2 rec.out | cmp - nat.tail
'
test_done
