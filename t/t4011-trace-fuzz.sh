#!/bin/bash
# t4011-trace-fuzz.sh: tdump, replay and tseek on a few hundred damaged
# copies of a trace (t/fuzz/tmutate: records damaged, then wrapped again
# into valid chunks, so that the record parsers see the damage) neither
# crash nor hang: each exits 0 or 125 (replay: or the program's status
# that a damaged exit record names). FUZZ_COUNT and FUZZ_FIRST choose the
# mutants; a failing one is kept in the scratch directory as crash-SEED.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines tmutate tstatus

: "${FUZZ_FIRST:=1}" "${FUZZ_COUNT:=300}"
test_expect_success 'record' '
	rec -o base "$T/lines" 3 >/dev/null 2>&1 &&
	replay base >/dev/null
'
test_expect_success "tdump and replay on $FUZZ_COUNT mutants" '
	"$TEST_DIR/fuzz/fuzz.sh" "$T" base "$FUZZ_FIRST" "$FUZZ_COUNT" tdump replay
'
test_expect_success "tseek on $((FUZZ_COUNT / 5)) mutants" '
	"$TEST_DIR/fuzz/fuzz.sh" "$T" base "$FUZZ_FIRST" "$((FUZZ_COUNT / 5))" tseek
'
test_done
