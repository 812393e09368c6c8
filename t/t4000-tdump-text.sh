#!/bin/bash
# t4000-tdump-text.sh: tdump prints one "EVENT TID KIND DETAIL" line per
# event, syscalls strace-style, for grep and awk.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines random

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 3 &&
	run_tool tdump "$trace" >dump 2>err
'
test_expect_success 'every line is EVENT TID KIND DETAIL' '
	test -s dump &&
	! grep -vE "^[0-9]+ [0-9]+ [a-z_]+( |\$)" dump
'
test_expect_success 'events are numbered from 0 upwards without gaps' '
	cut -d" " -f1 dump >nums &&
	seq 0 $(($(wc -l <nums) - 1)) >expect &&
	test_cmp_bytes expect nums
'
test_expect_success 'tdump | grep write shows the writes strace-style' '
	grep "write(1, " dump >w &&
	test $(wc -l <w) = 3 &&
	! grep -vE "^[0-9]+ [0-9]+ syscall write\(1, \"line [0-2] [0-9a-f]{8}\\\\n\", 16\) = 16\$" w
'
test_expect_success 'one tid (the recorded pid) on every line' '
	test $(cut -d" " -f2 dump | sort -u | wc -l) = 1
'
test_expect_success 'the program exit is the last event' '
	tail -n 1 dump | grep -Eq "exit"
'
test_expect_success 'there is an execve' '
	grep -q " syscall execve(" dump ||
	grep -q "execve" dump
'
test_expect_success 'getrandom and openat show up by name' '
	rec_prog "$T/random" &&
	run_tool tdump "$trace" >dump2 &&
	grep -q " syscall getrandom(" dump2 &&
	grep -q " syscall openat(.*\"/dev/urandom\"" dump2
'
test_expect_success 'failed syscalls show the errno name' '
	rec_prog cat /no/such/file &&
	run_tool tdump "$trace" >dump3 &&
	grep -E "\"/no/such/file\".* = -1 ENOENT" dump3
'
test_expect_success 'tdump of a missing trace fails with 125' '
	run_tool tdump no-such-trace >out 2>err
	test $? = 125 && grep -q no-such-trace err
'
test_done
