#!/bin/bash
# t6018-kernel-vmwrite.sh: process_vm_writev into a process of the
# recorded tree (a child, the caller itself) is performed again into the
# same process at replay; into a process outside the recording it is
# refused in one line.
. "$(dirname "$0")/test-lib.sh"
require_tprog vmwrite

test_expect_success 'writes into the child and into itself record and replay' '
	rec_replay_cmp "$T/vmwrite" &&
	grep -Eq "^child.s box: written [0-9a-f]{8}" rec.out &&
	grep -Eq "^into itself: 17, box: written" rec.out
'
test_expect_success 'native output differs (token)' '
	differs_natively "$T/vmwrite"
'
test_expect_success 'a write outside the recording is refused in one line' '
	run_tool rec -o tr-out "$T/vmwrite" outside >out 2>err
	st=$?
	not_signalled $st && test $st = 125 &&
	grep -v "^rec: recording to" err >msg &&
	one_line_error msg "^rec: .*process_vm_writev into process [0-9]+ \(outside" &&
	! grep -q "^into the parent" out
'
test_done
