#!/bin/bash
# t1110-tree-out-order.sh: threads write to stdout while one blocks in
# read awaiting a signal; one thread's write blocks on a full pipe (a
# slow reader) while main writes. Replay prints the bytes in the order
# they reached the pipe: rec lets no other thread run until a write to
# stdout or stderr ends.
. "$(dirname "$0")/test-lib.sh"
require_tprog outorder

test_expect_success 'output differs natively' '
	differs_natively "$T/outorder"
'
# More than a pipe holds, read after a pause: the write blocks whatever
# the timing, and main wants to write meanwhile.
for i in 1 2 3; do
	test_expect_success "record through a slow pipe and replay byte for byte ($i)" '
		rm -rf tr.$i &&
		{ run_tool rec -o tr.$i "$T/outorder" 100000 2>rec.err; echo $? >rec.status; } |
			{ sleep 0.3; cat; } >rec.out &&
		cat rec.err && cut -c1-40 rec.out &&
		check_status rec.status 0 &&
		test $(wc -l <rec.out) = 4 &&
		head -n 1 rec.out | grep -Eq "^r [0-9a-f]{8} [a-z]+$" &&
		test $(head -n 1 rec.out | wc -c) = 100000 &&
		run_tool replay tr.$i >replay.out 2>replay.err &&
		cat replay.err &&
		test_cmp_bytes rec.out replay.out
	'
done
test_expect_success 'the blocked write is one whole record, not an entry and an end' '
	run_tool tdump tr.1 >dump &&
	grep -E "^[0-9]+ [0-9]+ syscall write\(1, \"r [0-9a-f]{8} .*\) = 100000$" dump &&
	! grep -E "^[0-9]+ [0-9]+ sysret write\(1, \"r " dump
'
test_done
