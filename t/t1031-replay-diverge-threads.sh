#!/bin/bash
# t1031-replay-diverge-threads.sh: replay of a program with a second
# thread (waiting in pause()) diverges at a write; replay must end every
# thread and exit 125 with one line, not wait forever for the first
# thread, which the kernel holds back until the others are reaped.
. "$(dirname "$0")/test-lib.sh"
require_tprog rdrand
test_have_prereq RDRAND || skip_all 'the CPU has no rdrand'

test_expect_success 'rdrand output differs natively' '
	differs_natively "$T/rdrand" thread
'
test_expect_success 'record' '
	rec_prog "$T/rdrand" thread &&
	check_status rec.status 0
'
test_expect_success 'replay ends with 125 and names the divergence' '
	timeout 20 replay "$trace" >out 2>err
	st=$?
	cat err &&
	expect_status $st 125 &&
	one_line_error err "^replay: divergence at event [0-9]+: write: "
'
test_done
