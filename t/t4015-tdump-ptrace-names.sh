#!/bin/bash
# t4015-tdump-ptrace-names.sh: tdump names ptrace requests (PTRACE_TRACEME,
# PTRACE_CONT, PTRACE_ATTACH, PTRACE_PEEKDATA...) as strace does, not by
# number, among them strace's PTRACE_GET_SYSCALL_INFO (16910), which rec
# answers as the kernel does.
. "$(dirname "$0")/test-lib.sh"
require_tprog pattach ptinfo

test_expect_success 'a TRACEME child: tdump names TRACEME and CONT' '
	rec_replay_cmp "$T/pattach" traceme &&
	run_tool tdump "$trace" >dump &&
	grep -E " syscall ptrace\(PTRACE_TRACEME, 0, NULL, NULL\) = 0$" dump &&
	grep -E " syscall ptrace\(PTRACE_CONT, [0-9]+, " dump &&
	! grep -E " syscall ptrace\([0-9]" dump
'
test_expect_success 'an attaching parent: ATTACH, PEEKDATA, GETREGS, DETACH' '
	rec_replay_cmp "$T/pattach" &&
	run_tool tdump "$trace" >dump &&
	grep -o "ptrace(PTRACE_[A-Z_]*" dump | sort -u >names &&
	cat names &&
	printf "ptrace(PTRACE_%s\n" ATTACH DETACH GETREGS PEEKDATA >expect &&
	test_cmp_bytes expect names
'
test_expect_success 'PTRACE_GET_SYSCALL_INFO of a process it does not trace: as natively, named' '
	native_cmp "$T/ptinfo" &&
	grep -qx "PTRACE_GET_SYSCALL_INFO: -1 errno 3" rec.out &&
	run_tool tdump "$trace" >dump &&
	grep -E " syscall ptrace\(PTRACE_GET_SYSCALL_INFO, [0-9]+, 0x58, 0x[0-9a-f]+\) = -1 ESRCH" dump
'
test_done
