#!/bin/bash
# t4015-tdump-ptrace-names.sh: tdump names ptrace requests (PTRACE_TRACEME,
# PTRACE_CONT, PTRACE_ATTACH, PTRACE_PEEKDATA...) as strace does, not by
# number; and rec, refusing a request it does not emulate (strace's
# PTRACE_GET_SYSCALL_INFO, 16910), names it too.
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
test_expect_success 'rec refuses PTRACE_GET_SYSCALL_INFO by name' '
	rec_prog "$T/ptinfo" &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program made syscall ptrace \(101\) with PTRACE_GET_SYSCALL_INFO, which rewind cannot record yet; the trace .* ends before it$"
'
test_done
