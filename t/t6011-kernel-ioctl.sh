#!/bin/bash
# t6011-kernel-ioctl.sh: what ioctl and fcntl write at their argument is
# recorded and replayed: old-style requests from rec's table (TCGETS,
# TIOCGWINSZ, FIONREAD, SIOCGIFCONF, VT_OPENQRY...), _IOC-encoded ones by
# their size, F_GET_RW_HINT, F_GETOWN_EX, F_OFD_GETLK; a request the
# kernel refuses records as it is.
. "$(dirname "$0")/test-lib.sh"
require_tprog ioctls

test_expect_success 'ioctl and fcntl outputs record and replay' '
	rec_replay_cmp "$T/ioctls"
'
test_expect_success 'native output differs (sizes, hints, offsets)' '
	differs_natively "$T/ioctls"
'
test_expect_success 'the recorded answers are the kernel'"'"'s' '
	grep -Eq "^F_GET_RW_HINT = 0: ([0-9]) \(set \1\)" rec.out &&
	grep -q "^FIONREAD = 0: [1-9]" rec.out &&
	grep -q "^F_GETOWN_EX = 0: type 1 pid mine" rec.out &&
	grep -q "^ioctl 0x54ff = -1 errno 25" rec.out &&
	grep -q "^SIOCGIFINDEX lo = 0: [1-9]" rec.out
'
test_expect_success 'tdump names the requests' '
	tdump "$trace" >dump &&
	grep -q "ioctl([0-9]*, TIOCGWINSZ" dump &&
	grep -q "fcntl([0-9]*, F_GET_RW_HINT" dump &&
	grep -q "ioctl([0-9]*, SIOCGIFCONF" dump
'
test_done
