#!/bin/bash
# t2086-replay-trap-action.sh: rdtsc while the program blocks SIGSEGV and
# SIGILL, or ignores SIGSEGV. The fault of rec's trap (PR_SET_TSC's
# SIGSEGV; with REWIND_NO_TSC_TRAP=1 a patched site's SIGILL) makes the
# kernel unblock the signal and reset its action to the default: rec
# blocks it again and sets its action back (IT_TRAPACT), and replay,
# whose fault does the same, too. The program sees what it sees
# natively (its handlers kept and run), in rec and replay alike, also
# from tseek's checkpoints.
. "$(dirname "$0")/test-lib.sh"
require_tprog trapact

test_expect_success 'output differs natively (token)' '
	differs_natively "$T/trapact"
'
test_expect_success 'handlers kept, signals blocked, SIGSEGV ignored: as natively, and replayed' '
	rec_replay_cmp "$T/trapact" &&
	grep -qx "parent: tsc 1, still blocked 1, handlers kept 1 1, ran 11 4" rec.out &&
	grep -qx "child: tsc 1, still blocked 1, handlers kept 1 1, ran 11 4" rec.out &&
	grep -qx "ignored: tsc 1, still ignored 1, child status 0" rec.out
'
test_expect_success 'tdump says which rdtsc set what back' '
	run_tool tdump "$trace" >dump &&
	run_tool tdump --json "$trace" >dump.json &&
	if head -n 1 dump | grep -q " rdtsc=patched"; then
		grep -q " rdtsc .* (SIGILL: blocked again, its action set back)$" dump &&
		! grep -q " rdtsc .* (SIGSEGV" dump &&
		grep -q "\"trap_signal\":4,\"reblocked\":true,\"action_back\":true" dump.json
	else
		grep -q " rdtsc .* (SIGSEGV: blocked again, its action set back)$" dump &&
		grep -q " rdtsc .* (SIGSEGV: its action set back)$" dump &&
		grep -q "\"trap_signal\":11,\"reblocked\":false,\"action_back\":true" dump.json
	fi
'
test_expect_success 'tseek: checkpoints across them, and replay from one writes every byte' '
	run_tool tseek --quiet --every 2 "$trace" >ts.out 2>ts.err &&
	test ! -s ts.err &&
	run_tool tseek --list "$trace" >list &&
	test $(wc -l <list) -gt 2 &&
	last=$(run_tool tdump "$trace" | tail -n 1 | cut -d" " -f1) &&
	run_tool replay --to "$last" "$trace" >to.out 2>to.err &&
	replay_cmp
'
test_done
