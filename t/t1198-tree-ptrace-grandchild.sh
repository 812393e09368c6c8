#!/bin/bash
# t1198-tree-ptrace-grandchild.sh: a tracer kills the grandchild its
# tracee forked and lets the tracee go: the tracee stops at once for its
# SIGCHLD, under rec as natively (the signal came while it was stopped
# for its tracer at its fork's exit), and replay says the same.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptgrand

test_expect_success 'output differs between native runs' '
	differs_natively "$T/ptgrand"
'
test_expect_success 'recorded and replayed byte for byte' '
	rec_replay_cmp "$T/ptgrand"
'
test_expect_success 'the statuses are the native ones' '
	(cd "$scratch" && "$T/ptgrand") >native.out 2>&1 &&
	grep -qx "the child let go: it status 0x117f" native.out &&
	sed 1d native.out >want &&
	sed 1d rec.out >got &&
	test_cmp_bytes want got
'
test_done
