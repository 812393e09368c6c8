#!/bin/bash
# t4010-trace-full-disk.sh: rec on a full disk (a 2 MiB tmpfs) fails with
# one line and a non-zero status, and leaves a trace that ends at its last
# whole chunk, as after kill -9: tdump, replay and tpack read it and say
# it ends early; tseek fails there and leaves no seek.new behind.
. "$(dirname "$0")/test-lib.sh"
require_tprog bigread

mkdir mnt
mount -t tmpfs -o size=2m tmpfs mnt 2>/dev/null ||
	skip_all "cannot mount a tmpfs (not root, or not permitted)"
test_cleanup () {
	cd / && umount "$scratch/mnt" && rm -rf "$scratch"
}

test_expect_success 'rec on a full disk fails with one line' '
	rec -o mnt/tr "$T/bigread" /dev/urandom 8 >/dev/null 2>rec.err
	st=$?
	cat rec.err
	expect_status $st 125 &&
	grep -v "^rec: recording to" rec.err >rec.err1 &&
	one_line_error rec.err1 "No space left on device"
'
# check TOOL STATUS: TOOL reads the trace and says it ends early.
check () {
	timeout 60 "$1" mnt/tr >out 2>err
	st=$?
	cat err
	expect_status $st $2 &&
	grep -q "trace ends early after event [0-9]" err &&
	! grep -q "truncated chunk" err
}
test_expect_success 'tdump reads it and says it ends early' 'check tdump 0'
test_expect_success 'replay reads it and says it ends early' 'check replay 125'
test_expect_success 'a copy elsewhere: tpack reads it and says it ends early' '
	cp -r mnt/tr tr &&
	timeout 60 tpack tr >out 2>err
	st=$?
	cat err
	expect_status $st 0 &&
	grep -q "trace ends early after event [0-9]" err
'
test_expect_success 'tseek fails on the full disk and leaves no seek.new' '
	timeout 60 tseek mnt/tr 2>err
	st=$?
	cat err
	expect_status $st 125 &&
	test ! -e mnt/tr/seek.new
'
test_done
