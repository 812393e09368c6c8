#!/bin/bash
# t2214-count-lazy.sh: counting is lazy (count_lazy): a process is patched
# at the end of its first call that makes a thread or arms a timer, not
# at its exec, and that call's record says so. codesum (one thread, no
# timer) reads its own code: lazily it sees the bytes an uncounted run
# sees, patched at exec (REWIND_COUNT_EAGER=1) it sees others. counting's
# threads and profsig's timer get their code patched at the clone and at
# setitimer, their preemptions are points, and replay prints the same
# bytes; so does replay --to a point from a tseek checkpoint taken before
# the patching (the checkpoint carries what is to be patched), also with
# the trace moved elsewhere.
. "$(dirname "$0")/test-lib.sh"
require_tprog codesum counting profsig
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }
unset REWIND_COUNT_EAGER REWIND_NO_COUNT

# sum_of FILE: the code sum codesum printed.
sum_of () {
	sed -n "s/^code [0-9]* bytes sum \([0-9a-f]*\) .*/\1/p" "$1"
}

test_expect_success 'one thread, no timer: never patched, its code reads as uncounted' '
	REWIND_COUNT_SITES=$scratch/sites rec_replay_cmp "$T/codesum" &&
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9][0-9]* lazily" dump &&
	! grep -q "patched for counting" dump &&
	! grep -q "^activate" sites &&
	! grep -q "^site" sites &&
	sum_of rec.out >lazy &&
	REWIND_NO_COUNT=1 rec_replay_cmp "$T/codesum" &&
	sum_of rec.out >uncounted &&
	test -s lazy && test_cmp_bytes uncounted lazy
'
test_expect_success 'REWIND_COUNT_EAGER=1: patched at exec, its code reads otherwise' '
	REWIND_COUNT_EAGER=1 rec_replay_cmp "$T/codesum" &&
	run_tool tdump "$trace" >dump &&
	grep -q "^0 .* start .*counted=[1-9][0-9]*" dump &&
	! grep -q "^0 .* start .*lazily" dump &&
	sum_of rec.out >eager &&
	test -s eager && ! cmp -s eager lazy
'
test_expect_success 'threads: patched at the first clone, preemptions are points, replay matches' '
	differs_natively "$T/counting" 100 &&
	REWIND_COUNT_SITES=$scratch/sites2 rec_replay_cmp "$T/counting" 100 &&
	run_tool tdump "$trace" >dump &&
	grep " (its code patched for counting now)" dump >patched &&
	test $(wc -l <patched) = 1 &&
	grep -q "syscall clone.* (new thread of process " patched &&
	test $(grep -c "^activate" sites2) = 2 &&	# rec and replay both log it
	grep -q " (point: replay runs the thread to it" dump
'
test_expect_success 'a timer: patched at setitimer, signals come at points, replay matches' '
	differs_natively "$T/profsig" &&
	rec_replay_cmp "$T/profsig" &&
	run_tool tdump "$trace" >dump &&
	grep -q "syscall setitimer(.* (its code patched for counting now)" dump &&
	grep -q " (point: replay runs the thread to it" dump &&
	at=$(awk "/its code patched for counting now/ { print \$1; exit }" dump) &&
	pt=$(awk -v s=$at "\$1 > s && / \\(point: / { print \$1; exit }" dump) &&
	test -n "$at" && test -n "$pt" && test $at -gt 2 &&
	run_tool replay --to $pt "$trace" >before 2>&1
'
test_expect_success 'replay --to the first point from a checkpoint taken before the patching' '
	run_tool tseek --quiet --every $((at - 1)) "$trace" &&
	run_tool tseek --list "$trace" | awk "NR > 1 { print \$1 }" >cps &&
	cp=$(awk -v p=$pt "\$1 <= p { c = \$1 } END { print c + 0 }" cps) &&
	test $cp -gt 0 && test $cp -lt $at &&
	run_tool replay --to $pt "$trace" >after 2>&1 &&
	test_cmp_bytes before after &&
	mv "$trace" "$scratch/moved.trace" &&
	run_tool replay --to $pt "$scratch/moved.trace" >after.moved 2>&1 &&
	test_cmp_bytes before after.moved
'
test_done
