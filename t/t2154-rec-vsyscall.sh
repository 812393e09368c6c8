#!/bin/bash
# t2154-rec-vsyscall.sh: a call through the legacy vsyscall page ends with
# no syscall-exit stop: rec refuses it in one line naming it, exit 125,
# and the trace up to it replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog vsyscall
grep -q "\[vsyscall\]" /proc/self/maps || skip_all "no vsyscall page (vsyscall=none)"

test_expect_success 'rec refuses the vsyscall time by name' '
	rec_prog "$T/vsyscall" &&
	check_status rec.status 125 &&
	one_line_error rec.err "^rec: the program made a call through the legacy vsyscall page \(time at 0xffffffffff600400\), which rewind cannot record yet; the trace .* ends before it$" &&
	grep -q "^pid " rec.out
'
test_expect_success 'the trace before it replays' '
	run_tool replay "$trace" >replay.out 2>replay.err </dev/null;
	test_cmp_bytes rec.out replay.out
'
test_done
