#!/bin/bash
# t1196-tree-ptrace-refused.sh: what a tracer inside the program may do
# natively but rewind cannot replay is refused at record time, at once,
# in one line naming it; the trace up to there replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptbreak

test_expect_success 'PTRACE_SYSEMU: refused, named, with why' '
	rec_prog "$T/ptbreak" sysemu &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program made syscall ptrace \(101\) with PTRACE_SYSEMU \(a tracer that makes its tracee.s calls itself\), which rewind cannot record yet; the trace .* ends before it$"
'
test_expect_success 'the trace up to the refusal replays' '
	run_tool replay "$trace" >/dev/null 2>rp.err
	not_signalled $?
'
test_expect_success 'a tracee let run with its code changed other than by int3: refused' '
	rec_prog "$T/ptbreak" patch &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program.s tracer let its tracee [0-9]* run with its code at 0x[0-9a-f]* changed other than by a breakpoint \(int3\), which rewind cannot replay yet; the trace .* ends before it$"
'
test_expect_success 'the trace up to the refusal replays' '
	run_tool replay "$trace" >/dev/null 2>rp.err
	not_signalled $?
'
test_done
