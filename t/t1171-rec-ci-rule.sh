#!/bin/bash
# t1171-rec-ci-rule.sh: the make rule of the README's "Recording in CI",
# taken from the README as it stands, records a passing and a failing
# test: only the failing one's trace is left, and it replays the failure.
. "$(dirname "$0")/test-lib.sh"
command -v make >/dev/null 2>&1 || skip_all "no make"

test_expect_success 'the README has the rule' '
	awk "/^## Recording in CI/ { s = 1 } s && /^\`\`\`make\$/ { m = 1; next }
	     m && /^\`\`\`\$/ { exit } m" "$TEST_DIR/../README.md" >Makefile &&
	grep -q "^check-rec:" Makefile &&
	grep -q "$(printf "^\t")@rec --keep-failed" Makefile
'
test_expect_success 'make -k check-rec: the failing test fails the run and keeps its trace' '
	mkdir tests &&
	printf "echo good\n" >tests/pass.sh &&
	printf "echo bad; date +%%N; exit 1\n" >tests/fail.sh &&
	run_tool make -k check-rec >make.out 2>&1
	st=$?
	cat make.out
	test $st != 0 &&
	grep -q "fail failed: replay traces/fail" make.out &&
	test -e traces/pass.passed && test ! -e traces/pass &&
	test ! -e traces/fail.passed && test -s traces/fail/events
'
test_expect_success 'the kept trace replays the failure, byte for byte' '
	run_tool replay traces/fail >out 2>err
	expect_status $? 1 &&
	strip_rec_line traces/fail.log >want &&
	grep -q "^bad$" want &&
	test_cmp_bytes want out
'
test_expect_success 'again: the passed test is not run again, the failure is recorded afresh' '
	old=$(cat out) &&
	sleep 1 && touch marker &&
	run_tool make -k check-rec >make2.out 2>&1
	test $? != 0 &&
	test traces/pass.log -ot marker && test traces/fail.log -nt marker &&
	run_tool replay traces/fail >out2 2>&1
	expect_status $? 1 &&
	test "$(cat out2)" != "$old"
'
test_done
