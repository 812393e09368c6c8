#!/bin/bash
# t6013-kernel-seccomp.sh: a program's own seccomp filter works under rec
# as natively, stacked on rewind's: bad arguments get EINVAL and EFAULT,
# RET_ERRNO answers a call, RET_TRAP raises a SIGSYS the program catches
# (recorded), RET_KILL_PROCESS kills it; all replay the same. Strict
# mode, which cannot stack on rewind's filter, is kept by rec (t1125).
# Syscall user dispatch (its SIGSYS) replays too.
. "$(dirname "$0")/test-lib.sh"
require_tprog own-seccomp sud

test_expect_success 'a filter with ERRNO and TRAP records and replays' '
	rec_replay_cmp "$T/own-seccomp"
'
test_expect_success 'native output differs (token)' '
	differs_natively "$T/own-seccomp"
'
test_expect_success 'the answers are the native ones' '
	"$T/own-seccomp" >native.out &&
	grep -v "^token" native.out >want &&
	grep -v "^token" rec.out >got &&
	test_cmp_bytes want got &&
	grep -q "^SIGSYS 31: syscall 140 code 1 data 42" got &&
	grep -q "^PR_GET_SECCOMP before = 0" got
'
test_expect_success 'a filter that kills the process: status 159 in both runs' '
	RR_EXPECT=159 rec_replay_cmp "$T/own-seccomp" kill
'
test_expect_success 'strict mode records and replays' '
	rec_replay_cmp "$T/own-seccomp" strict &&
	grep -q "^strict" rec.out
'
test_expect_success 'syscall user dispatch: the SIGSYS it raises replays' '
	rec_replay_cmp "$T/sud" &&
	grep -q "SIGSYS for syscall 110, code 2" rec.out
'
test_done
