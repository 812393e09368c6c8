#!/bin/bash
# t1105-tree-chaos.sh: race.c fails in a few native runs; rec --chaos
# makes it fail at least twice as often (in about half the recordings), and
# a failing recording replays the failure. The chaos seed is printed, kept
# in the trace and reusable.
. "$(dirname "$0")/test-lib.sh"
require_tprog race

# rec_chaos DIR OPTION: records race with OPTION (--chaos or --chaos=N)
# into DIR, leaving rec.out, rec.err (without rec's own lines),
# rec.err.raw, rec.status and the seed rec printed in $seed.
rec_chaos () {
	trace=$scratch/$1
	rm -rf "$trace"
	run_tool rec -o "$trace" "$2" "$T/race" >rec.out 2>rec.err.raw </dev/null
	echo $? >rec.status
	awk 'NR <= 2 && /^rec: (recording to |chaos seed [0-9]+$)/ { next } { print }' \
		rec.err.raw >rec.err
	seed=$(sed -nE 's/^rec: chaos seed ([0-9]+)$/\1/p' rec.err.raw)
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
}

# 200 native runs: about 1% fail on an idle machine, more under load (a
# thread preempted inside its window): the count is compared with chaos's
# below, made under the same load.
test_expect_success 'natively race fails in a few of 200 runs' '
	fails=0 &&
	bad= &&
	for i in $(seq 200); do
		"$T/race" >nat.out 2>&1
		st=$?
		if [ $st = 1 ] && grep -q "^RACE: balance -60$" nat.out; then
			fails=$((fails + 1))
		elif [ $st != 0 ] || ! grep -qx ok nat.out; then
			bad="status $st: $(cat nat.out)"
			break
		fi
	done &&
	echo "$fails of 200 native runs failed" &&
	test -z "$bad" &&
	test $fails -lt 100 &&
	native_fails=$fails
'
test_expect_success 'rec --chaos prints its seed' '
	rec_chaos tr.first --chaos &&
	cat rec.err.raw &&
	not_signalled $(cat rec.status) &&
	test -n "$seed" &&
	test $(grep -c "^rec: chaos seed $seed$" rec.err.raw) = 1 &&
	test ! -s rec.err
'
test_expect_success 'the seed is in the trace: tdump shows chaos=SEED at the start' '
	run_tool tdump "$trace" >dump &&
	head -n 1 dump | grep -Eq "^0 [0-9]+ start .*chaos=$seed( |$)"
'
test_expect_success 'a recording without --chaos has no seed' '
	rec_prog "$T/race" &&
	! grep -q "^rec: chaos seed" rec.err.raw &&
	run_tool tdump "$trace" >dump &&
	! head -n 1 dump | grep -Eq " chaos=[0-9]"
'
# rec --chaos gives way at about half the syscalls, always to another
# thread: about half the recordings fail (1 - 2^-40 that one does).
test_expect_success 'chaos recordings fail at least twice as often as native runs' '
	found= &&
	chaos_fails=0 &&
	bad= &&
	for i in $(seq 40); do
		rec_chaos tr.chaos.$i --chaos
		st=$(cat rec.status)
		echo "recording $i: seed $seed, status $st: $(head -c 80 rec.out)"
		if [ $st = 1 ] && grep -q "^RACE: balance -60$" rec.out; then
			chaos_fails=$((chaos_fails + 1))
			if [ -z "$found" ]; then
				found=$i
				failseed=$seed
				cp rec.out fail.out && cp rec.err fail.err &&
				cp rec.status fail.status
			fi
		elif [ $st = 0 ] && grep -qx ok rec.out; then
			rm -rf "$trace"
		else
			bad="status $st: $(cat rec.out rec.err.raw)"
			break
		fi
	done &&
	echo "$chaos_fails of 40 chaos recordings failed; natively $native_fails of 200" &&
	test -z "$bad" &&
	test -n "$found" &&
	test $((chaos_fails * 200)) -ge $((2 * native_fails * 40)) &&
	trace=$scratch/tr.chaos.$found &&
	cp fail.out rec.out && cp fail.err rec.err && cp fail.status rec.status &&
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
'
test_expect_success 'the failing recording replays the failure: RACE and status 1' '
	test -n "$found" &&
	check_status rec.status 1 &&
	replay_cmp &&
	grep -q "^RACE" replay.out
'
test_expect_success 'and its trace holds its seed' '
	run_tool tdump "$trace" >dump &&
	head -n 1 dump | grep -Eq "^0 [0-9]+ start .*chaos=$failseed( |$)"
'
test_expect_success 'a second replay fails the same way' '
	replay_cmp
'
test_expect_success 'rec --chaos=SEED takes that seed and the trace replays' '
	rec_chaos tr.again --chaos=$failseed &&
	cat rec.err.raw &&
	test "$seed" = "$failseed" &&
	st=$(cat rec.status) &&
	{ test $st = 0 || test $st = 1; } &&
	run_tool tdump "$trace" >dump &&
	head -n 1 dump | grep -Eq "^0 [0-9]+ start .*chaos=$failseed( |$)" &&
	replay_cmp
'
test_expect_success 'rec --chaos=junk is a usage error' '
	run_tool rec -o tr.junk --chaos=junk "$T/race" >out 2>err
	expect_status $? 2 &&
	one_line_error err "^rec: " &&
	test ! -s out
'
test_done
