#!/bin/bash
# t3000-real-shell.sh: real programs replay: shells running builtins,
# ls -l /, date +%s%N and python.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'sh -c with echo $$ and read' '
	echo "hello there" >in &&
	rec_replay_cmp <in sh -c "echo \$\$; read x; echo \$x" &&
	test "$(sed -n 2p rec.out)" = "hello there"
'
test_expect_success BASH 'bash with $RANDOM differs natively' '
	differs_natively bash -c "echo \$RANDOM \$RANDOM \$RANDOM"
'
test_expect_success BASH 'bash with $RANDOM, $$ and printf replays' '
	echo input >in &&
	rec_replay_cmp <in bash -c "echo \$RANDOM \$\$; read l; printf \"%s/%05d\\n\" \"\$l\" \$RANDOM"
'
test_expect_success 'ls -l /' '
	rec_replay_cmp ls -l / &&
	test -s rec.out
'
test_expect_success 'date +%s%N differs natively' '
	differs_natively date +%s%N
'
test_expect_success 'date +%s%N replays' '
	rec_replay_cmp date +%s%N &&
	grep -Eqx "[0-9]{19}" rec.out
'
test_expect_success PYTHON 'python random and time differ natively' '
	differs_natively /usr/bin/python3 -c "import random,time; print(random.random(), time.time())"
'
test_expect_success PYTHON 'python random and time replay' '
	rec_replay_cmp /usr/bin/python3 -c "import random,time; print(random.random(), time.time())"
'
test_expect_success PYTHON 'python writing to stderr and exiting 3 replays' '
	RR_EXPECT=3 rec_replay_cmp /usr/bin/python3 -c "import os,sys; sys.stderr.write(os.urandom(4).hex()+chr(10)); sys.exit(3)"
'
test_done
