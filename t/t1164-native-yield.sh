#!/bin/bash
# t1164-native-yield.sh: two threads hand a token back and forth, each
# waiting for its turn with sched_yield(): a yield under rec gives the
# other runnable thread its turn, as the kernel does, and replay makes
# the same switches.
. "$(dirname "$0")/test-lib.sh"
require_tprog native

test_expect_success 'a token passed with sched_yield, as natively' '
	native_cmp "$T/native" yield &&
	grep -q "^passes 200 200$" rec.out
'
test_done
