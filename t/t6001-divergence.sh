#!/bin/bash
# t6001-divergence.sh: rdrand cannot be pinned, so a program whose writes
# depend on it diverges at replay; replay must notice at the first write
# that differs, name the event and exit 125.
. "$(dirname "$0")/test-lib.sh"
require_tprog rdrand
test_have_prereq RDRAND || skip_all 'the CPU has no rdrand'

test_expect_success 'rdrand output differs natively' '
	differs_natively "$T/rdrand"
'
test_expect_success 'record' '
	rec_prog "$T/rdrand" &&
	check_status rec.status 0
'
test_expect_success 'replay stops with 125 and names the event' '
	timeout 20 replay "$trace" >out 2>err
	st=$?
	cat err &&
	expect_status $st 125 &&
	grep -Eiq "diverge" err &&
	grep -Eq "event [0-9]+" err
'
test_expect_success 'the event named is one of the writes' '
	ev=$(grep -Eo "event [0-9]+" err | head -n 1 | cut -d" " -f2) &&
	run_tool tdump "$trace" >dump &&
	grep "^$ev " dump | grep -q "write(1,"
'
test_expect_success 'output before the divergence is re-emitted, after is not' '
	n=$(wc -c <out) &&
	head -c $n rec.out >prefix &&
	test_cmp_bytes prefix out &&
	! test_cmp_bytes rec.out out
'
test_done
