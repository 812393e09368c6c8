#!/bin/bash
# t1014-tree-handler-preempt.sh: a signal delivered at a syscall whose
# handler then computes until it is preempted replays: replay delivers
# the signal (builds its frame, sets its mask) before it sets the state
# rec found in the handler, instead of after it (which ran the handler
# twice and left rt_sigreturn a wrong frame).
. "$(dirname "$0")/test-lib.sh"
require_tprog handler-spin

test_expect_success 'handler-spin differs natively (token)' '
	differs_natively "$T/handler-spin"
'
test_expect_success 'handler-spin replays byte for byte' '
	rec_replay_cmp "$T/handler-spin" &&
	grep -Eq "^handler sum [0-9]+, tgkill 0, token [0-9a-f]{8}$" rec.out
'
test_expect_success 'the trace has the signal, then a preemption in the handler' '
	run_tool tdump "$trace" >dump &&
	# The signal, then the next event of its thread: the waiter may
	# still be starting (its own calls in between) when the signal comes.
	awk "/^[0-9]+ [0-9]+ signal SIGUSR1 / && !t { t = \$2; print; next }
	     t && \$2 == t { print; exit }" dump >at &&
	cat at &&
	test $(wc -l <at) = 2 &&
	tail -n 1 at | grep -Eq "^[0-9]+ [0-9]+ preempt at "
'
test_expect_success 'replay --to the preemption stops there' '
	n=$(tail -n 1 at | cut -d" " -f1) &&
	run_tool replay --to "$n" "$trace" >to.out 2>to.err &&
	grep -q "preempt" to.out
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_done
