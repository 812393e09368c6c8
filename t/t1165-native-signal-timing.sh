#!/bin/bash
# t1165-native-signal-timing.sh: a CPU-time timer (SIGPROF every 2 ms of
# the program's own CPU time) fires under rec about as often as natively,
# though the program makes no syscall: a signal is delivered where the
# kernel delivers it, not held to the next syscall. Replay runs each
# handler at the same place (the hash of where the loop was). With
# REWIND_HOLD_SIGNALS=1 (the fallback) signals wait, and replay still
# matches.
. "$(dirname "$0")/test-lib.sh"
require_tprog profsig

hits () { sed -n 's/^hits \([0-9]*\) .*/\1/p' "$1"; }

# Held signals give a handful of runs (9 for 100-200 natively); the
# bound is half the native count, since the two runs' CPU times move
# apart on a shared VM (a native run beside another test once took 208
# ticks where rec's took 145).
test_expect_success 'natively and under rec: as many handler runs, at least half' '
	"$T/profsig" >nat.out &&
	n=$(hits nat.out) && test "$n" -ge 20 &&
	REWIND_HOLD_SIGNALS=0 rec_replay_cmp "$T/profsig" &&
	r=$(hits rec.out) &&
	echo "native $n, under rec $r" &&
	test $((r * 2)) -ge "$n"
'
test_expect_success 'each delivery was recorded as a preemption, then the signal' '
	run_tool tdump "$trace" >dump &&
	test "$(grep -c "signal.*SIGPROF" dump)" -ge $((r - 1)) &&
	grep -B1 "signal.*SIGPROF" dump | grep -q preempt
'
test_expect_success 'REWIND_HOLD_SIGNALS=1: held to a timeslice, replay matches' '
	REWIND_HOLD_SIGNALS=1 rec_replay_cmp "$T/profsig"
'
test_done
