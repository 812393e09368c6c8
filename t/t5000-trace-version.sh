#!/bin/bash
# t5000-trace-version.sh: the events file's header: a trace whose version
# is newer than the tools' is refused with a message naming the version,
# one of version 1 is still read, and a file that is not an events file
# is refused.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 3
'
test_expect_success 'events starts with the magic RWNDEVTS and version 2' '
	head -c 8 "$trace/events" >magic &&
	printf RWNDEVTS >expect &&
	test_cmp_bytes expect magic &&
	test "$(od -An -tu4 -j8 -N4 "$trace/events" | tr -d " ")" = 2
'
test_expect_success 'a trace of version 1 is still read' '
	cp -r "$trace" v1 &&
	put_u32 v1/events 8 1 &&
	replay_cmp "$scratch/v1" &&
	tdump v1 >dump &&
	grep -q "exit status 0" dump
'
test_expect_success 'a bumped version is refused by replay' '
	cp -r "$trace" v3 &&
	put_u32 v3/events 8 3 &&
	timeout 20 replay v3 >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "version" &&
	grep -qw 3 err &&
	! test -s out
'
test_expect_success 'and by tdump' '
	timeout 20 tdump v3 >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "version.*3|3.*version"
'
test_expect_success 'a huge version is refused too' '
	put_u32 v3/events 8 4000000000 &&
	timeout 20 replay v3 >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "version"
'
test_expect_success 'a file with the wrong magic is refused, naming the file' '
	cp -r "$trace" badmagic &&
	printf XXXXXXXX | dd of=badmagic/events conv=notrunc 2>/dev/null &&
	timeout 20 replay badmagic >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "badmagic/events"
'
test_expect_success 'a text file in place of events is refused' '
	mkdir -p text &&
	echo "hello, I am not a trace" >text/events &&
	timeout 20 tdump text >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "text/events"
'
test_done
