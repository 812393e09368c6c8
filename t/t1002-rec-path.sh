#!/bin/bash
# t1002-rec-path.sh: rec finds the program on PATH as a shell does, and
# takes paths with a slash as they are.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'setup: a private bin directory' '
	mkdir -p mybin other &&
	cp "$T/lines" mybin/mylines &&
	printf "#!/bin/sh\nexit 5\n" >other/mylines &&
	chmod +x other/mylines
'
test_expect_success 'a bare name is looked up on PATH' '
	PATH=$scratch/mybin:$PATH run_tool rec -o p1 mylines 3 >out 2>err &&
	test $(wc -l <out) = 3
'
test_expect_success 'the first PATH entry wins' '
	PATH=$scratch/mybin:$scratch/other:$PATH run_tool rec -o p2 mylines 1 >out 2>err &&
	test $(wc -l <out) = 1
'
test_expect_success 'a name with a slash is not looked up' '
	(cd mybin && run_tool rec -o ../p3 ./mylines 2 >../out 2>../err) &&
	test $(wc -l <out) = 2
'
test_expect_success 'a name on PATH but not there is 127' '
	PATH=$scratch/nowhere:/usr/bin:/bin run_tool "$REWIND_BIN/rec" -o p4 mylines >out 2>err
	test $? = 127
'
test_expect_success 'the default trace name is the basename' '
	PATH=$scratch/mybin:$PATH run_tool rec mylines 1 >/dev/null 2>&1 &&
	test -d "$REWIND_DIR/mylines-0"
'
test_expect_success 'a PATH-found program replays' '
	PATH=$scratch/mybin:$PATH run_tool rec -o p5 mylines 4 >out 2>/dev/null &&
	run_tool replay p5 >rout &&
	test_cmp_bytes out rout
'
test_done
