#!/bin/bash
# t6002-unsupported.sh: io_uring and rseq get ENOSYS inside the recorded
# program (and replay the same way); fork, vfork and clone make rec stop
# with a message naming the syscall and a non-zero status.
. "$(dirname "$0")/test-lib.sh"
require_tprog nosys forker

test_expect_success 'io_uring_setup and rseq get ENOSYS under rec' '
	rec_replay_cmp "$T/nosys" &&
	grep -q "^io_uring_setup = -1 errno 38 " rec.out &&
	grep -q "^rseq = -1 errno 38 " rec.out
'
test_expect_success 'native output differs (token)' '
	differs_natively "$T/nosys"
'

# refused HOW PATTERN: rec of forker HOW fails naming PATTERN.
refused () {
	rm -rf "tr-$1"
	run_tool rec -o "tr-$1" "$T/forker" "$1" >out 2>err
	st=$?
	echo "rec status $st"
	cat err
	not_signalled $st &&
	test $st != 0 &&
	grep -v "^rec: recording to" err | grep -Eq "$2" &&
	grep -q "^forker: $1" out &&
	! grep -q "child exited" out
}
test_expect_success 'fork (glibc: clone) is refused' 'refused fork "clone|fork"'
test_expect_success 'raw fork syscall is refused' 'refused rawfork "fork"'
test_expect_success 'vfork is refused' 'refused vfork "vfork"'
test_expect_success 'pthread_create (clone3/clone) is refused' 'refused thread "clone"'
test_expect_success 'the message is rec'"'"'s own, one line' '
	refused fork "clone|fork" &&
	grep -v "^rec: recording to" err >msg &&
	one_line_error msg "^rec: "
'
test_done
