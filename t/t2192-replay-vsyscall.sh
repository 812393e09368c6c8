#!/bin/bash
# t2192-replay-vsyscall.sh: calls through the legacy vsyscall page
# (gettimeofday, time, getcpu at 0xffffffffff600000), which the kernel
# emulates with no syscall-exit stop: rec makes them itself at their entry
# stop and replay answers them there (rec refused them before).
. "$(dirname "$0")/test-lib.sh"
require_tprog vsyscall

"$T/vsyscall" | grep -q "^no vsyscall page" && skip_all "the kernel maps no vsyscall page"

test_expect_success 'output differs between native runs' '
	differs_natively "$T/vsyscall"
'
test_expect_success 'vsyscall calls record and replay' '
	rec_replay_cmp "$T/vsyscall" &&
	grep -q "^gettimeofday 0 usec [0-9]* tz 0$" rec.out &&
	grep -q "^time same$" rec.out &&
	grep -q "^getcpu 0 plausible$" rec.out
'
test_expect_success 'tdump shows them as the calls they are' '
	tdump "$trace" >dump &&
	grep -q "gettimeofday({tv_sec=" dump &&
	grep -q "getcpu(\\[" dump
'
test_done
