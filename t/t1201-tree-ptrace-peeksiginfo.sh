#!/bin/bash
# t1201-tree-ptrace-peeksiginfo.sh: a tracer inside the program reads the
# signals queued for its stopped tracee with PTRACE_PEEKSIGINFO (refused
# before: strace's own ptrace test does it), and PTRACE_GETREGSET of
# NT_PRSTATUS fails with EINVAL for a length that is not whole registers,
# leaving it alone, as the kernel does (rec answered 216 for 217).
. "$(dirname "$0")/test-lib.sh"
require_tprog ptpeek

test_expect_success 'output differs between native runs' '
	differs_natively "$T/ptpeek"
'
test_expect_success 'the queued signals and the regset lengths replay byte for byte' '
	rec_replay_cmp "$T/ptpeek" &&
	cat rec.out &&
	grep -q "^peeksiginfo 2: USR1 from parent RTMIN from parent$" rec.out &&
	grep -Eq "^value [0-9]+$" rec.out &&
	grep -q "^from the second 1$" rec.out &&
	grep -q "^bad flags -1 EINVAL$" rec.out &&
	grep -q "^getregset 217: -1 EINVAL, length 217$" rec.out &&
	grep -q "^getregset 216: 0, length 216$" rec.out &&
	grep -q "^child killed$" rec.out
'
test_expect_success 'as natively' '
	"$T/ptpeek" >nat.out &&
	sed "/^value /d" nat.out >nat.cmp &&
	sed "/^value /d" rec.out >rec.cmp &&
	test_cmp_bytes nat.cmp rec.cmp
'
test_done
