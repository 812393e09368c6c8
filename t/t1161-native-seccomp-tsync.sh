#!/bin/bash
# t1161-native-seccomp-tsync.sh: a filter installed with
# SECCOMP_FILTER_FLAG_TSYNC is every thread's: PR_GET_SECCOMP says 2 in a
# thread made before it, as without rec (rec kept it for the caller only).
. "$(dirname "$0")/test-lib.sh"
require_tprog native

test_expect_success 'PR_GET_SECCOMP after a TSYNC filter, as natively' '
	native_cmp "$T/native" tsync &&
	grep -q "^thread 2$" rec.out
'
test_done
