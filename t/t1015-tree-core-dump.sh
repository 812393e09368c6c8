#!/bin/bash
# t1015-tree-core-dump.sh: a child that raised its core limit and aborted
# ended with a core dumped under rec; replay answers its setrlimit, so
# the kernel dumps none there, and the end is the recorded one all the
# same (LTP's abort01: replay called it a divergence, 0x86 against 0x6).
. "$(dirname "$0")/test-lib.sh"
require_tprog coredump

test_expect_success 'output differs between native runs' '
	differs_natively "$T/coredump"
'
test_expect_success 'the abort and its core replay, the status the recorded one' '
	rec_replay_cmp "$T/coredump" &&
	cat rec.out &&
	grep -Eq "^child killed by signal 6, core (dumped|not dumped)$" rec.out
'
test_done
