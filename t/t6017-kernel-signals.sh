#!/bin/bash
# t6017-kernel-signals.sh: signal corners record and replay as natively:
# a stack overflow caught on a sigaltstack, one without (SIGSEGV kills),
# ppoll whose signal mask lets a pending signal in (replay makes the same
# mask juggling), and a fatal SIGALRM right at start.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigcorner

test_expect_success 'native output differs (token)' '
	differs_natively "$T/sigcorner" ppoll
'
test_expect_success 'stack overflow caught on the alternate stack' '
	RR_EXPECT=3 rec_replay_cmp "$T/sigcorner" overflow &&
	grep -q "^overflow caught on the alternate stack" rec.out
'
test_expect_success 'stack overflow without one: killed by SIGSEGV' '
	RR_EXPECT=139 rec_replay_cmp "$T/sigcorner" overflow-noalt
'
test_expect_success 'ppoll with a signal mask that lets SIGUSR1 in' '
	rec_replay_cmp "$T/sigcorner" ppoll &&
	grep -q "^ppoll = -1, got 10" rec.out
'
test_expect_success 'a fatal signal at start' '
	RR_EXPECT=142 rec_replay_cmp "$T/sigcorner" early
'
test_done
