#!/bin/bash
# t1011-tree-wait-status.sh: tdump names each status a parent's wait4 got
# as strace does: a child stopped, continued (WCONTINUED) and exited.
. "$(dirname "$0")/test-lib.sh"
require_tprog groupstop

test_expect_success 'groupstop records and replays' '
	rec_replay_cmp "$T/groupstop" &&
	grep -q "^continued 1" rec.out
'
test_expect_success 'tdump shows the stop, the continue and the exit' '
	run_tool tdump "$trace" >dump &&
	grep " wait4(" dump >waits &&
	cat waits &&
	grep -q "= [0-9]*$" waits &&
	grep -Eq "wait4\([0-9]+, \[\{WIFSTOPPED\(s\) && WSTOPSIG\(s\) == SIGSTOP\}\], 0x2, NULL\) = [0-9]+$" waits &&
	grep -Eq "wait4\([0-9]+, \[\{WIFCONTINUED\(s\)\}\], 0x8, NULL\) = [0-9]+$" waits &&
	grep -Eq "wait4\([0-9]+, \[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 7\}\], 0, NULL\) = [0-9]+$" waits &&
	! grep -q "WTERMSIG(s) == 127" waits
'
test_expect_success 'tdump --json says the same' '
	run_tool tdump --json "$trace" >dump.json &&
	grep -q "WIFCONTINUED(s)" dump.json
'
test_done
