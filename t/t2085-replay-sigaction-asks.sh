#!/bin/bash
# t2085-replay-sigaction-asks.sh: posix_spawn's child asks for each
# signal's action and then sets it. With syscall buffering on, an
# rt_sigaction that only asks passes rec's filter without a stop from
# anywhere, and replay's the same (the start record says untraced=1):
# the kernel answers from the actions the traced sets gave. One that sets
# and asks nothing back ends without a stop in rec, and in replay where
# nothing looks at the thread before its next event: not at the event
# replay --to stops after (its result is in rax there), not with another
# thread of the process about, not under a tracer in the tree. A tracer
# in the tree that wants its tracee's calls (strace) sees the asks too:
# the tracee stops at each call's entry (TRF_ATENTRY). REWIND_NO_BUFFER=1
# traces them all. Each way, the same bytes.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigask
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE

# asks DUMP: the rt_sigaction calls of the JSON dump that only ask.
asks () {
	grep '"name":"rt_sigaction"' "$1" | grep -c '"args":\[[0-9]*,0,'
}
buffered () {
	[ -z "${REWIND_NO_BUFFER:-}" ] || [ "$REWIND_NO_BUFFER" = 0 ]
}

test_expect_success 'raw asks and sets, bad ones, and posix_spawn: replayed byte for byte' '
	differs_natively "$T/sigask" &&
	rec_replay_cmp "$T/sigask" &&
	grep -q " asked 64 .* bad -3 ran 1:1 10:1 28:1 37:1 spawned 0$" rec.out &&
	run_tool tdump "$trace" >dump &&
	run_tool tdump --json "$trace" >dump.json &&
	test $(grep -c "rt_sigaction(SIG[A-Z0-9_]*, 0x7ff[0-9a-f]*, NULL, 8) = 0$" dump) -ge 30 &&
	if buffered; then
		head -n 1 dump | grep -q " untraced=1 " &&
		test $(asks dump.json) = 0
	else
		! head -n 1 dump | grep -q "untraced=" &&
		test $(asks dump.json) -ge 64
	fi
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
test_expect_success STRACE 'under strace -f in the recording: it shows every ask, as natively; replayed byte for byte' '
	strace -f -o "$scratch/nat.strace" "$T/sigask" >/dev/null &&
	rec_replay_cmp strace -f -o "$scratch/rec.strace" "$T/sigask" &&
	grep -q " spawned 0$" rec.out &&
	test $(grep -c "rt_sigaction(SIG[A-Z0-9_]*, NULL, " "$scratch/rec.strace") -ge 64 &&
	test $(grep -c "rt_sigaction(SIG[A-Z0-9_]*, NULL, " "$scratch/rec.strace") = \
		$(grep -c "rt_sigaction(SIG[A-Z0-9_]*, NULL, " "$scratch/nat.strace") &&
	run_tool tdump --json "$trace" >strace.json &&
	if buffered; then
		test $(grep "\"at_entry\":true" strace.json | grep -c "\"args\":\[[0-9]*,0,") -ge 64
	fi
'
test_done
