#!/bin/bash
# t1122-tree-ptrace-syscall.sh: more of ptrace within the recorded tree:
# the SIGTRAP a traced child gets at its execve, PTRACE_GETSIGINFO and
# PTRACE_SETSIGINFO, EIO and EFAULT for bad addresses, a POKEDATA at a
# signal's stop right after a call (replay ran that call again),
# PTRACE_PEEKUSER past the registers (as the kernel answers),
# PTRACE_SETOPTIONS (TRACESYSGOOD, EXITKILL) and PTRACE_SYSCALL stops at
# every call's entry and exit, buffered or not (an execve's: its entry,
# its exit, then its SIGTRAP).
. "$(dirname "$0")/test-lib.sh"
require_tprog ptsys

test_expect_success 'native output differs (token)' '
	differs_natively "$T/ptsys"
'
test_expect_success 'the tracer sees what it sees natively, and replays' '
	rec_replay_cmp "$T/ptsys" &&
	grep -q "^attach to 0: -1 errno 3, to no process: -1 errno 3" rec.out &&
	grep -q "^traced twice: -1 errno 1" rec.out &&
	grep -q "^after its exec: stopped 1 by 5" rec.out &&
	grep -q "^siginfo: signal 5 code 0" rec.out &&
	grep -q "^dr7 0, unaligned -5, u_tsize 0, past the end -5" rec.out &&
	grep -q "^syscall stops 1, at writes 4, other stops 0, exit" rec.out &&
	grep -q "^at a call.s entry: 5, rax -38" rec.out &&
	grep -q "^killed there by 9" rec.out &&
	grep -q "^through its execve: 5/59 5/59 5/59$" rec.out &&
	grep -q "^then exit 1" rec.out &&
	grep -q "^bad addresses answered otherwise 0, SETSIGINFO 0, POKEDATA 0" rec.out &&
	grep -q "^the child.s handler got [1-9][0-9]*, poked [1-9]" rec.out
'
test_done
