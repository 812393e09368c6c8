#!/bin/bash
# t2085-replay-sigaction-asks.sh: rt_sigaction that sets an action and
# asks nothing back (posix_spawn's child makes one per signal) ends
# without a stop in rec, and in replay where nothing looks at the thread
# before its next event: the kernel makes it as the thread goes on. Not
# at the event replay --to stops after (its result is in rax there), not
# with another thread of the process about, not under a tracer in the
# tree; tseek and gdbstub stop at its end. Each way, the same bytes.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigask
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE

test_expect_success 'raw asks and sets, bad ones, and posix_spawn: replayed byte for byte' '
	differs_natively "$T/sigask" &&
	rec_replay_cmp "$T/sigask" &&
	grep -q " asked 64 .* bad -3 ran 1:1 10:1 28:1 37:1 spawned 0$" rec.out &&
	run_tool tdump "$trace" >dump &&
	test $(grep -c "rt_sigaction(SIG[A-Z0-9_]*, 0x7ff[0-9a-f]*, NULL, 8) = 0$" dump) -ge 30
'
test_expect_success 'replay --to a set that asks nothing back: stopped after it, its result in rax' '
	ev=$(grep "rt_sigaction(SIGUSR1, 0x" dump | head -n 1 | cut -d" " -f1) &&
	run_tool replay --to "$ev" "$trace" >to.out &&
	grep -q -- "-- stopped after event $ev --" to.out &&
	grep -Eq "^rax +0x0+$" to.out &&
	grep -Eq "^orig_rax +0x0+d$" to.out
'
test_expect_success 'tseek checkpoints the sets; replay --to the end from them' '
	run_tool tseek --every 10 "$trace" >/dev/null 2>tseek.err &&
	test $(run_tool tseek --list "$trace" | wc -l) -ge 5 &&
	last=$(tail -n 1 dump | cut -d" " -f1) &&
	run_tool replay --to "$last" "$trace" >last.out 2>last.err &&
	test ! -s last.err &&
	grep -q -- "-- stopped after event $last --" last.out
'
test_expect_success 'a set by a second thread that main then raises: replayed byte for byte' '
	differs_natively "$T/sigask" thread &&
	rec_replay_cmp "$T/sigask" thread &&
	grep -q " 12:1 " rec.out
'
test_expect_success STRACE 'under strace -f in the recording: replayed byte for byte' '
	rec_replay_cmp strace -f -o /dev/null "$T/sigask" &&
	grep -q " spawned 0$" rec.out
'
test_done
