#!/bin/bash
# t0000-basic-usage.sh: each tool rejects bad command lines with a message
# and exit status 2, and rec reports a missing command with 127.
. "$(dirname "$0")/test-lib.sh"

# usage_error TOOL ARGS...: TOOL exits 2 and says something on stderr.
usage_error () {
	run_tool "$@" >out 2>err </dev/null
	st=$?
	if [ "$st" != 2 ]; then
		echo "$*: status $st, expected 2"
		cat err
		return 1
	fi
	if ! [ -s err ]; then
		echo "$*: no message on stderr"
		return 1
	fi
}

test_expect_success 'rec with no arguments' 'usage_error rec'
test_expect_success 'rec with an unknown option' 'usage_error rec --no-such-option true'
test_expect_success 'rec -o without a directory' 'usage_error rec -o'
test_expect_success 'rec with only --' 'usage_error rec --'
test_expect_success 'replay with an unknown option' 'usage_error replay --no-such-option'
test_expect_success 'replay --to without a number' 'usage_error replay --to'
test_expect_success 'replay --to with a non-number' '
	rec_prog true &&
	usage_error replay --to abc "$trace"
'
test_expect_success 'replay with two traces' 'usage_error replay a b'
test_expect_success 'tdump with an unknown option' 'usage_error tdump --no-such-option'
test_expect_success 'tdump with two traces' 'usage_error tdump a b'

test_expect_success 'rec of a missing command exits 127' '
	run_tool rec -o tr -- no-such-command-here >out 2>err </dev/null
	st=$? &&
	expect_status $st 127 &&
	grep -q "no-such-command-here" err
'
test_expect_success 'rec of a missing path exits 127' '
	run_tool rec -o tr2 -- ./no/such/file >out 2>err </dev/null
	st=$? &&
	expect_status $st 127
'
test_done
