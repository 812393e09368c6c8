#!/bin/bash
# t6019-kernel-xtables.sh: getsockopt's value is kept as long as the
# kernel says (a netfilter table's entries run past 256 bytes), and a
# table replace (setsockopt IPT_SO_SET_REPLACE) keeps the counters the
# kernel writes through a pointer inside its struct. xtables does both
# in a network namespace of its own (root, and the ip_tables nat table;
# else it says why it skips).
. "$(dirname "$0")/test-lib.sh"
require_tprog xtables

test_expect_success 'output differs between native runs' '
	differs_natively "$T/xtables"
'
test_expect_success 'recorded and replayed byte for byte' '
	rec_replay_cmp "$T/xtables"
'
grep -q "^counters summed" rec.out && test_set_prereq XTABLES
test_expect_success XTABLES 'the table and its counters came back' '
	grep -Eq "^[0-9]+ entries, [0-9]+ bytes, summed [0-9a-f]{8}$" rec.out &&
	test $(sed -n "s/^[0-9]* entries, \([0-9]*\) bytes.*/\1/p" rec.out) -gt 256 &&
	grep -qx "counters summed 00000000" rec.out
'
test_done
