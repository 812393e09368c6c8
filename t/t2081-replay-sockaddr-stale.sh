#!/bin/bash
# t2081-replay-sockaddr-stale.sh: replay compares what the kernel reads of
# a sockaddr: an AF_UNIX address up to its path's NUL (glibc's nscd client
# passes all 110 bytes, the rest stale stack, which differs between rec
# and replay when the preloaded library answered the calls before), an
# abstract name in full. A difference the kernel does read is reported
# with where it is: the byte and both values.
. "$(dirname "$0")/test-lib.sh"
require_tprog sockjunk

nobuf () {
	[ -n "${REWIND_NO_BUFFER:-}" ] && [ "$REWIND_NO_BUFFER" != 0 ]
}

test_expect_success 'connect, bind and sendto with stale bytes after the path: replayed' '
	rec_replay_cmp "$T/sockjunk" &&
	grep -q "^connect to a missing socket: -1 No such file or directory$" rec.out &&
	grep -q "^connect: 0 ok$" rec.out &&
	grep -q "^sendto: 4 ok$" rec.out &&
	grep -q "^got ping$" rec.out
'
test_expect_success 'and replayed with every call traced (--stack, REWIND_NO_BUFFER)' '
	run_tool replay --stack "$trace" >stack.out 2>stack.err </dev/null
	expect_status $? 0 &&
	! grep -i divergence stack.err &&
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >nb.out 2>nb.err </dev/null
	expect_status $? 0 &&
	test_cmp_bytes rec.out nb.out
'
if nobuf; then
	test_skip 'stale bytes in the path itself: divergence names the byte' \
		'no buffering: rec and replay leave the same stack'
else
	test_expect_success 'stale bytes in the path itself: divergence names the byte' '
		rec_prog "$T/sockjunk" path && check_status rec.status 0 &&
		run_tool replay "$trace" >out 2>err
		expect_status $? 125 &&
		one_line_error err "^replay: divergence at event [0-9]+: connect: argument 2 differs at byte (1[89]|2[0-5]): 0x[0-9a-f]{2} in the trace, 0x[0-9a-f]{2} now$"
	'
fi
test_done
