#!/bin/bash
# t1116-tree-pidns.sh: a pid namespace (unshare(CLONE_NEWPID) then fork, or
# clone(CLONE_NEWPID), which replay does without namespaces):
# its init forks, kills by a pid of the namespace and reaps, and sends
# itself signals the kernel drops for a namespace's init; with
# "orphan" the kernel kills what init leaves behind. The program sees
# other ids than rec: the trace says which is which, and replay follows.
. "$(dirname "$0")/test-lib.sh"
require_tprog pidns

test_expect_success 'output differs natively' '
	differs_natively "$T/pidns"
'
for mode in reap clone orphan; do
	test_expect_success "$mode: record and replay byte for byte" '
		rec_replay_cmp "$T/pidns" $mode &&
		grep -qx "child: pid 1, parent 0" rec.out &&
		grep -qx "init: 2 killed by 15" rec.out &&
		grep -qx "init: survived its own SIGQUIT and SIGRTMIN+2" rec.out &&
		grep -Eqx "token [0-9a-f]{8}: child exited ([0-9]+) \(want \1\)" rec.out
	'
done
[ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1 && test_set_prereq ROOT
test_expect_success ROOT 'clone(CLONE_NEWPID) replays for a user who cannot make namespaces' '
	rec_replay_cmp "$T/pidns" clone &&
	chmod 755 "$scratch" && chmod -R a+rX "$trace" &&
	(cd / && runuser -u nobody -- "$REWIND_BIN/replay" "$trace") >nobody.out 2>nobody.err &&
	test_cmp_bytes rec.out nobody.out
'
test_expect_success 'its init dies of a fault, as natively (not faulting for ever)' '
	(cd "$scratch" && "$T/pidns" segv) >native.out 2>&1 &&
	grep -Eqx "token [0-9a-f]{8}: child killed by 11" native.out &&
	rec_replay_cmp "$T/pidns" segv &&
	grep -Eqx "token [0-9a-f]{8}: child killed by 11" rec.out &&
	run_tool tdump "$trace" | grep -q " task-exit signal SIGSEGV"
'
test_expect_success 'the orphan was killed by the kernel, in the trace too' '
	rec_replay_cmp "$T/pidns" orphan &&
	run_tool tdump "$trace" | grep -q " task-exit signal SIGKILL$"
'
test_done
