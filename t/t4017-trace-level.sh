#!/bin/bash
# t4017-trace-level.sh: rec's zstd level. By default it starts at 1 and
# drops (to -1000) while rec's helper thread falls behind, so that rec
# does not wait for zstd; REWIND_TRACE_LEVEL=N fixes it. Whatever the
# level, replay reads the trace byte for byte, also at level 19, where
# the helper's ring of eight chunks fills and rec waits for each slot;
# a level zstd does not have is refused in one line before a trace
# directory is made.
. "$(dirname "$0")/test-lib.sh"
require_tprog bigread

# 24 MiB of text (compressible, unlike /dev/urandom's bytes).
test_expect_success 'set-up: a file of text' '
	head -c $((18 << 20)) /dev/urandom | base64 >text &&
	test $(stat -c %s text) -gt $((24 << 20))
'
test_expect_success 'bigread prints something else each native run' '
	differs_natively "$T/bigread" "$scratch/text" 24
'
test_expect_success 'REWIND_TRACE_LEVEL=19: replay prints the same bytes' '
	REWIND_TRACE_LEVEL=19 rec_replay_cmp "$T/bigread" "$scratch/text" 24 &&
	stat -c %s "$trace/events" >size.19
'
test_expect_success 'REWIND_TRACE_LEVEL=-100: replay prints the same bytes, the trace bigger' '
	REWIND_TRACE_LEVEL=-100 rec_replay_cmp "$T/bigread" "$scratch/text" 24 &&
	stat -c %s "$trace/events" >size.fast &&
	test $(cat size.fast) -gt $(($(cat size.19) * 5 / 4))
'
test_expect_success 'the default (adaptive): replay prints the same bytes, tdump reads it' '
	unset REWIND_TRACE_LEVEL &&
	rec_replay_cmp "$T/bigread" "$scratch/text" 24 &&
	run_tool tdump "$trace" >dump &&
	grep -q " read(" dump
'
test_expect_success 'without the helper thread too' '
	REWIND_NO_TRACE_THREAD=1 rec_replay_cmp "$T/bigread" "$scratch/text" 24
'
for bad in x 1.5 -200000 23 1e3; do
	test_expect_success "REWIND_TRACE_LEVEL=$bad: refused in one line, no trace made" '
		REWIND_TRACE_LEVEL='"$bad"' run_tool rec -o tr.bad -- true >out 2>err
		st=$?
		expect_status $st 2 &&
		one_line_error err "REWIND_TRACE_LEVEL" &&
		! test -e tr.bad
	'
done
test_done
