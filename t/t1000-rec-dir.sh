#!/bin/bash
# t1000-rec-dir.sh: where rec puts traces: the default directory under
# $REWIND_DIR or ~/.local/share/rewind, NAME-N numbering, the latest-trace
# symlink, -o, the "recording to" line and mode 0700.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'first recording goes to $REWIND_DIR/NAME-0' '
	run_tool rec "$T/lines" 2 >out 2>err &&
	test -d "$REWIND_DIR/lines-0" &&
	test -f "$REWIND_DIR/lines-0/events" &&
	test -d "$REWIND_DIR/lines-0/files"
'
test_expect_success 'rec says where it records, on stderr' '
	head -n 1 err >first &&
	grep -Fxq "rec: recording to $REWIND_DIR/lines-0" first ||
	{ cat err; false; }
'
test_expect_success 'the program output is not mixed with rec messages' '
	test $(wc -l <out) = 2 && ! grep -q "^rec:" out
'
test_expect_success 'latest-trace points to it' '
	test -L "$REWIND_DIR/latest-trace" &&
	test "$(cd "$REWIND_DIR/latest-trace" && pwd -P)" = "$(cd "$REWIND_DIR/lines-0" && pwd -P)"
'
test_expect_success 'next recordings are numbered 1 and 2 and move latest-trace' '
	run_tool rec "$T/lines" 1 >/dev/null 2>&1 &&
	run_tool rec "$T/lines" 3 >out3 2>/dev/null &&
	test -d "$REWIND_DIR/lines-1" &&
	test -d "$REWIND_DIR/lines-2" &&
	test "$(cd "$REWIND_DIR/latest-trace" && pwd -P)" = "$(cd "$REWIND_DIR/lines-2" && pwd -P)"
'
test_expect_success 'replay and tdump default to latest-trace' '
	run_tool replay >rout 2>rerr &&
	test_cmp_bytes out3 rout &&
	run_tool tdump >dump &&
	test -s dump
'
test_expect_success 'numbering takes the first free N' '
	rm -rf "$REWIND_DIR/lines-1" &&
	run_tool rec "$T/lines" 1 >/dev/null 2>&1 &&
	test -d "$REWIND_DIR/lines-1" &&
	test "$(cd "$REWIND_DIR/latest-trace" && pwd -P)" = "$(cd "$REWIND_DIR/lines-1" && pwd -P)"
'
test_expect_success 'NAME is the basename of the program' '
	run_tool rec true >/dev/null 2>&1 &&
	test -d "$REWIND_DIR/true-0"
'
test_expect_success 'trace directories are mode 0700' '
	test "$(stat -c %a "$REWIND_DIR/lines-0")" = 700 &&
	test "$(stat -c %a "$REWIND_DIR/true-0")" = 700
'
test_expect_success 'without REWIND_DIR traces go to ~/.local/share/rewind' '
	(unset REWIND_DIR && run_tool rec "$T/lines" 1 >/dev/null 2>err) &&
	test -f "$HOME/.local/share/rewind/lines-0/events" &&
	test -L "$HOME/.local/share/rewind/latest-trace" &&
	grep -Fq "$HOME/.local/share/rewind/lines-0" err
'
test_expect_success 'rec -o DIR records into DIR' '
	run_tool rec -o mine "$T/lines" 2 >oout 2>oerr &&
	test -f mine/events &&
	test -d mine/files &&
	test "$(stat -c %a mine)" = 700 &&
	head -n 1 oerr | grep -q "^rec: recording to .*mine" &&
	run_tool replay mine >rout &&
	test_cmp_bytes oout rout
'
test_expect_success 'rec -o does not move latest-trace' '
	test "$(cd "$REWIND_DIR/latest-trace" && pwd -P)" = "$(cd "$REWIND_DIR/true-0" && pwd -P)"
'
# A program the user owns, on the trace's filesystem, is hard-linked
# (system files are not when the user does not own them).
test_expect_success 'files/ names are 16 hex digits' '
	cp "$T/lines" own-lines &&
	run_tool rec -o own "$scratch/own-lines" 2 >/dev/null 2>&1 &&
	ls own/files >names &&
	test -s names &&
	! grep -vEx "[0-9a-f]{16}" names
'
test_done
