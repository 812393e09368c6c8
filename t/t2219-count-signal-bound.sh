#!/bin/bash
# t2219-count-signal-bound.sh: rec keeps a counted thread's count in
# the record of a signal its own instruction raised (tdump shows it), and
# replay lets the thread run at most 65536 counted edges past that count
# looking for the signal: a replay gone astray ends in a divergence
# (one line, exit 125) instead of running for ever. faultlate computes
# for millions of edges after its last call and dies of SIGSEGV there;
# with the recorded count made 100000 smaller, replay stops.
. "$(dirname "$0")/test-lib.sh"
require_tprog faultlate
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
test_have_prereq PYTHON || skip_all "no python3"
unset REWIND_NO_COUNT

test_expect_success 'output differs between native runs' '
	differs_natively "$T/faultlate"
'
test_expect_success 'recorded, the SIGSEGV carries a count, and replay matches' '
	RR_EXPECT=139 rec_replay_cmp "$T/faultlate" &&
	run_tool tdump "$trace" >dump &&
	grep -Eq " signal SIGSEGV si_code=1 addr=0x8 count=[0-9]{7,}$" dump
'
counted && test_set_prereq COUNTED
test_expect_success COUNTED 'its count made 100000 smaller: a divergence, exit 125' '
	rm -rf bad && cp -r "$trace" bad &&
	ev=$(tamper_record bad signal count-back) &&
	run_tool replay bad >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event $ev: thread [0-9]+ ran 65536 counted edges past where rec saw its SIGSEGV \(count [0-9]+\) without it$"
'
test_expect_success COUNTED 'one larger than the fault: replay still ends by it' '
	rm -rf ok && cp -r "$trace" ok &&
	tamper_record ok signal count >/dev/null &&
	replay_cmp "$scratch/ok"
'
test_done
