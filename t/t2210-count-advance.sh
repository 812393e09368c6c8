#!/bin/bash
# t2210-count-advance.sh: rec takes a point only at a counted edge, to
# which it runs the preempted thread on (rec/advance.c). uncounted.c
# spins in a loop the patcher cannot count (a store before its 2-byte
# back edge) until a timer's signal: no edge comes, so the state is
# recorded whole and the signal delivered there, and replay matches
# (patcher 3's rec took a point there that replay never found again).
# With a second thread computing beside it (which may take the signal),
# that thread's preemptions may be points and the spinner's are not.
. "$(dirname "$0")/test-lib.sh"
require_tprog uncounted heldmask
# Patched at exec (not lazily at the first thread or timer, whose
# patching the timer's first signal may come during), so that the
# single-threaded programs here are counted from the start.
export REWIND_COUNT_EAGER=1

test_expect_success 'uncounted prints something else each native run' '
	differs_natively "$T/uncounted"
'
test_expect_success 'the signal in an uncounted loop: replay prints the same bytes' '
	rec_replay_cmp "$T/uncounted" &&
	run_tool tdump "$trace" >dump &&
	grep -q " signal SIGALRM .* async" dump
'
test_expect_success 'counted: the state there is recorded whole, not as a point' '
	if counted; then
		grep -B1 " signal SIGALRM .* async" dump | head -n 1 >at &&
		cat at &&
		grep -q " preempt at .*(replay sets its state, " at &&
		! grep -q " (point: " dump
	fi
'
test_expect_success 'with a thread computing beside it: replay prints the same bytes' '
	rec_replay_cmp "$T/uncounted" thread &&
	run_tool tdump "$trace" >dump2 &&
	spinner=$(awk "\$3 == \"syscall\" { print \$2; exit }" dump2) &&	# main spins
	test -n "$spinner" &&
	if counted; then
		! grep " preempt at .* (point: " dump2 | awk -v t="$spinner" "\$2 == t" | grep -q .
	fi
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'
# heldmask's child signals its parent while the parent spins, and the
# parent then blocks the signal with sigprocmask: counted, the signal is
# carried on to the next counted edge, or, where the parent leaves its
# loop and reaches the call first, delivered before the call (which is
# undone and made after the handler): in phase 0 either way, as natively.
test_expect_success 'counted: a signal comes in before the call that would block it' '
	REWIND_NO_COUNT= REWIND_HOLD_SIGNALS=0 rec_replay_cmp "$T/heldmask" &&
	grep -Eq "^handler ran in phase 0, turns [0-9]+, token [0-9a-f]{8}$" rec.out
'
# A command substitution: bash reads its pipe while the child ends, and
# SIGCHLD stops bash at the end of that read. Run on from there to its
# next edge, its point differed in replay (5 of 5 recordings); rec now
# records the state there whole.
test_expect_success 'counted: bash command substitutions, SIGCHLD at a read, replay' '
	REWIND_NO_COUNT= rec_replay_cmp bash -c "for i in 1 2 3 4 5 6; do x=\$(echo \$RANDOM); echo \$x; done" &&
	test "$(wc -l <rec.out)" = 6
'
test_done
