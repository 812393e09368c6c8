#!/bin/bash
# t6002-unsupported.sh: io_uring and rseq get ENOSYS inside the recorded
# program (and replay the same way); ptrace makes rec stop with a message
# naming the syscall and a non-zero status; fork, vfork and threads, once
# refused, are recorded and replayed.
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
	! grep -q "traced" out
}
test_expect_success 'ptrace is refused, named' 'refused ptrace "syscall ptrace"'
test_expect_success 'the message is rec'"'"'s own, one line' '
	refused ptrace ptrace &&
	grep -v "^rec: recording to" err >msg &&
	one_line_error msg "^rec: "
'
for how in fork rawfork vfork thread; do
	test_expect_success "$how is recorded and replayed (the child's pid differs natively)" "
		differs_natively \"\$T/forker\" $how &&
		rec_replay_cmp \"\$T/forker\" $how &&
		grep -Eq '^(child [0-9]+ exited 3|joined)\$' rec.out
	"
done
test_done
