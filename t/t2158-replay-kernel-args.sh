#!/bin/bash
# t2158-replay-kernel-args.sh: what the kernel writes where rec once saw
# nothing (strace's own tests found them): prctl and fcntl whose int
# argument has junk in its high bits (the kernel ignores them; rec took
# fcntl's for an unknown command and refused it, and prctl's output went
# unsaved), getsockopt's length written before an EFAULT, and the size
# sched_setattr and perf_event_open write back with E2BIG; and clone3
# with CLONE_UNTRACED (refused before): rec and replay strip the flag
# from its struct while the kernel reads it, and put it back in both the
# parent's copy and the child's before either runs; a ptrace request
# the kernel does not know and process_vm_writev to pid -1 or to
# pid_max (no process: LTP's process_vm01), all ESRCH,
# and PTRACE_ATTACH of itself through a pid with junk in its high bits,
# EPERM (refused before).
. "$(dirname "$0")/test-lib.sh"
require_tprog kargs

test_expect_success 'output differs between native runs' '
	differs_natively "$T/kargs"
'
test_expect_success 'each answer replays byte for byte' '
	rec_replay_cmp "$T/kargs" &&
	cat rec.out &&
	grep -q "^prctl 0 subreaper 0$" rec.out &&
	grep -q "^fcntl 0 type unlocked$" rec.out &&
	grep -Eq "^sched_setattr -1 size [0-9]+$" rec.out &&
	! grep -q "size [0-9]$" rec.out &&
	grep -Eq "^child [0-9]+ flags as written$" rec.out &&
	grep -q "^clone3 child status 7 flags as written$" rec.out &&
	grep -q "^ptrace -1 ESRCH$" rec.out &&
	grep -q "^ptrace attach self -1 EPERM$" rec.out &&
	grep -q "^process_vm_writev -1 ESRCH$" rec.out &&
	grep -q "^process_vm_writev pid_max -1 ESRCH$" rec.out
'
test_expect_success 'the trace holds the length getsockopt wrote before it failed' '
	tdump "$trace" >dump &&
	grep -E "sched_setattr|perf_event_open|getsockopt" dump >calls &&
	cat calls &&
	{ grep -q "^getsockopt -$" rec.out ||
	  grep -Eq "getsockopt\(.*, \[[0-9]+\]\) = -1 EFAULT" calls; }
'
test_done
