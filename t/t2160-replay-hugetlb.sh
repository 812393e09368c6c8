#!/bin/bash
# t2160-replay-hugetlb.sh: an mmap with MAP_HUGETLB that the kernel
# answered with a huge page under rec replays where no huge page is
# reserved (LTP reserves them around a test, and its write to
# nr_hugepages is answered at replay): replay maps ordinary pages at the
# recorded address, the length rounded up to the huge page, as the
# kernel's (LTP's futex_wake04 diverged: ENOMEM). Root: it reserves one
# huge page for the recording and gives it back.
. "$(dirname "$0")/test-lib.sh"
require_tprog hugetlbmap

nr=/proc/sys/vm/nr_hugepages
if [ -w $nr ] && old=$(cat $nr) && echo $((old + 1)) >$nr 2>/dev/null; then
	echo "$old" >$nr
	test_set_prereq HUGE
fi

test_expect_success HUGE 'recorded with a huge page reserved, replayed with none' '
	echo $((old + 1)) >$nr &&
	rec_prog "$T/hugetlbmap"
	echo "$old" >$nr
	check_status rec.status 0 &&
	cat rec.out &&
	grep -Eq "^huge page: [0-9]+ [0-9]+$" rec.out &&
	replay_cmp
'
test_done
