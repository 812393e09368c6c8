#!/bin/bash
# t1160-native-exec-mask.sh: a signal mask is kept across execve. rec's
# rdtsc trap forces a SIGSEGV in (the loader reads the clock), and the
# kernel unblocks a forced signal: rec blocks it again, so SIGSEGV
# blocked before the execve is blocked after it, as without rec.
. "$(dirname "$0")/test-lib.sh"
require_tprog native

test_expect_success 'SIGSEGV blocked across execve, as natively' '
	native_cmp "$T/native" execmask &&
	grep -q "^SIGSEGV blocked$" rec.out
'
test_done
