#!/bin/bash
# t1050-rec-not-runnable.sh: a program rec cannot run (a directory, a
# file without execute permission, a device) is refused with one line and
# exit 126 before a trace is made: no trace directory is left behind, and
# latest-trace still points to the last real recording.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'setup: one real recording, a directory, a plain file' '
	run_tool rec "$T/lines" 1 >/dev/null 2>&1 &&
	before=$(readlink "$REWIND_DIR/latest-trace") &&
	test -n "$before" &&
	ls "$REWIND_DIR" >traces.before &&
	mkdir adir &&
	printf "#!/bin/sh\necho no\n" >plain && chmod 644 plain
'
# refused PROG MESSAGE: rec PROG fails with 126 and one line, and leaves
# the traces as they were (with -o too: the named directory is not made).
refused () {
	run_tool rec "$1" >out 2>err </dev/null
	st=$?
	cat err
	expect_status $st 126 &&
	one_line_error err "^rec: $1: $2\$" &&
	test ! -s out &&
	ls "$REWIND_DIR" >traces.after &&
	test_cmp_bytes traces.before traces.after &&
	test "$(readlink "$REWIND_DIR/latest-trace")" = "$before" &&
	run_tool rec -o named "$1" >out 2>err </dev/null
	st=$?
	expect_status $st 126 &&
	one_line_error err "^rec: $1: $2\$" &&
	test ! -e named
}
test_expect_success 'a directory is refused' 'refused "$scratch/adir" "is a directory"'
test_expect_success 'a directory by a relative path is refused' 'refused ./adir "is a directory"'
test_expect_success '/tmp is refused' 'refused /tmp "is a directory"'
test_expect_success 'a file without execute permission is refused' '
	if [ "$(id -u)" = 0 ] && [ -x plain ]; then
		echo "root may execute plain"; return 1
	fi
	refused ./plain "Permission denied"
'
test_expect_success 'a device is refused' '
	test -c /dev/null || { echo "no /dev/null"; return 1; }
	refused /dev/null "(Permission denied|not a regular file)"
'
test_done
