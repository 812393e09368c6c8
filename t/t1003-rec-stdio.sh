#!/bin/bash
# t1003-rec-stdio.sh: the recorded program keeps rec's stdin, stdout and
# stderr; replay gives back what it wrote without needing the input.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'echo hi | rec cat' '
	echo hi | run_tool rec -o c1 cat >out 2>err &&
	echo hi >expect &&
	test_cmp_bytes expect out
'
test_expect_success 'replay of cat needs no stdin' '
	run_tool replay c1 >rout 2>rerr </dev/null &&
	test_cmp_bytes expect rout
'
test_expect_success 'binary stdin passes through unchanged' '
	head -c 100000 /dev/urandom >in &&
	run_tool rec -o c2 cat <in >out 2>/dev/null &&
	test_cmp_bytes in out &&
	run_tool replay c2 >rout </dev/null &&
	test_cmp_bytes in rout
'
test_expect_success 'stdout and stderr stay apart' '
	rec_replay_cmp "$T/lines" 6 mix &&
	test $(wc -l <rec.out) = 3 &&
	test $(wc -l <rec.err) = 3 &&
	grep -q "^line 1 " rec.err &&
	grep -q "^line 0 " rec.out
'
test_expect_success 'the program writes to the stdout pipe rec was given' '
	run_tool rec -o c3 sh -c "test -p /dev/stdout && echo pipe" | cat >out &&
	grep -qx pipe out
'
# /dev/null is one inode however often it is opened: only writes to the
# open file rec's stdout is count as the program's stdout.
test_expect_success 'with stdout on /dev/null, writes to its own /dev/null are not output' '
	run_tool rec -o c4 sh -c "echo junk >/dev/null; echo junk2 2>/dev/null >&2; date +%N" \
		>/dev/null 2>/dev/null &&
	run_tool replay c4 >rout 2>rerr &&
	grep -qx "[0-9]*" rout && test $(wc -l <rout) = 1 &&
	test ! -s rerr
'
test_expect_success 'stdin reaches a program reading it line by line' '
	printf "one\ntwo\n" >in2 &&
	rec_replay_cmp sh -c "read a; read b; echo \$b \$a" <in2 &&
	echo "two one" >expect &&
	test_cmp_bytes expect rec.out
'
test_done
