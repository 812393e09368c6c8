#!/bin/bash
# t1125-tree-seccomp-strict.sh: seccomp strict mode records and replays
# (rec refused it: it cannot stack on rewind's filter in the kernel). rec
# keeps it: a call other than read, write, exit and rt_sigreturn kills
# the thread with SIGKILL, and replay kills it at the same call.
. "$(dirname "$0")/test-lib.sh"
require_tprog strict

test_expect_success 'native output differs (token)' '
	differs_natively "$T/strict"
'
test_expect_success 'strict mode acts as natively, and replays' '
	"$T/strict" >native.out &&
	rec_replay_cmp "$T/strict" &&
	grep -v "^token\|^exit in strict" native.out >want &&
	grep -v "^token\|^exit in strict" rec.out >got &&
	test_cmp_bytes want got &&
	grep -q "^in strict mode, read r" rec.out &&
	grep -q "^getpid in strict mode: killed by 9" rec.out &&
	grep -q "^exit in strict mode: exit [0-9]" rec.out &&
	grep -q "^strict after a filter: -1 errno 22" rec.out &&
	grep -q "^seccomp(STRICT, 1) = -1 errno 22" rec.out
'
test_done
