#!/bin/bash
# t1114-tree-exec-threads.sh: execve while other threads live (blocked in
# read and nanosleep): from the main thread (replay hung or diverged), and
# from another thread, which the kernel makes the leader under the main
# thread's id (rec refused it). Both record and replay byte for byte.
. "$(dirname "$0")/test-lib.sh"
require_tprog threxec

test_expect_success 'output differs natively' '
	differs_natively "$T/threxec" main &&
	differs_natively "$T/threxec" thread
'
test_expect_success 'execve from the main thread: record and replay' '
	rec_replay_cmp "$T/threxec" main &&
	grep -Eqx "after exec: token [0-9a-f]{8}, same pid 1, one thread 1" rec.out
'
test_expect_success 'the threads end before the execve does' '
	run_tool tdump "$trace" >dump &&
	test $(grep -c " task-exit status 0$" dump) = 2 &&
	grep -E "^[0-9]+ [0-9]+ sysret execve\(\"/proc/self/exe\"" dump
'
test_expect_success 'execve from another thread: record and replay' '
	rec_replay_cmp "$T/threxec" thread &&
	grep -Eqx "thread [0-9a-f]{8} execs" rec.out &&
	grep -Eqx "after exec: token [0-9a-f]{8}, same pid 1, one thread 1" rec.out
'
test_expect_success 'the thread'"'"'s execve ends under its id; then it is the leader' '
	run_tool tdump "$trace" >dump &&
	pid=$(awk "\$3 == \"start\" { print \$2; exit }" dump) &&
	tid=$(sed -nE "s/^[0-9]+ ([0-9]+) syscall execve\(\"\/proc\/self\/exe\".*\.\.\.$/\1/p" dump) &&
	test -n "$tid" && test "$tid" != "$pid" &&
	grep -E "^[0-9]+ $tid sysret execve\(" dump &&
	grep -E "^[0-9]+ $pid task-exit status 0$" dump &&
	grep -E "^[0-9]+ $pid syscall gettid\(\) = $pid$" dump
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
test_done
