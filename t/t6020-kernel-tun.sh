#!/bin/bash
# t6020-kernel-tun.sh: a tap device's ioctls whose encoding says less
# than the kernel writes (TUNSETIFF writes the chosen name back, TUNGETIFF
# a whole struct ifreq) are kept whole: replay prints the same name and
# flags. tunif does it in a network namespace of its own (root and
# /dev/net/tun; else it says why it skips).
. "$(dirname "$0")/test-lib.sh"
require_tprog tunif

test_expect_success 'output differs between native runs' '
	differs_natively "$T/tunif"
'
test_expect_success 'recorded and replayed byte for byte' '
	rec_replay_cmp "$T/tunif"
'
grep -q "^name rw0 flags" rec.out && test_set_prereq TUN
test_expect_success TUN 'the name and flags the kernel wrote' '
	grep -qx "name rw0" rec.out &&
	grep -qx "name rw0 flags 0x1002" rec.out
'
test_done
