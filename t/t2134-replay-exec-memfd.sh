#!/bin/bash
# t2134-replay-exec-memfd.sh: a program run from a memfd (fexecve) records
# and replays: rec took the executable's own mapping, named without the
# " (deleted)" its /proc/PID/exe link has, for the interpreter, so replay
# mapped the program as its loader and crashed (and an ordinary user's
# rec stopped, unable to open "/memfd:copy").
. "$(dirname "$0")/test-lib.sh"
require_tprog execmemfd

test_expect_success 'native output differs (token)' '
	differs_natively "$T/execmemfd"
'
test_expect_success 'the copy in a memfd runs at replay' '
	rec_replay_cmp "$T/execmemfd" &&
	tok=$(sed -n "s/^token //p" rec.out) &&
	grep -q "^the copy in a memfd got $tok$" rec.out &&
	grep -q "^the copy exited 3$" rec.out
'
test_expect_success 'tdump names the loader as the interpreter' '
	tdump "$trace" >dump &&
	grep "execveat(" dump | grep -q "interp=\"/[^m]"
'
test_done
