#!/bin/bash
# t2218-count-clone-running.sh: a process counted lazily is patched at its
# first thread, but never while another of its threads runs its own code.
# clonespin's new thread computes at once (a bare clone: no call first);
# with REWIND_CLONE_GIVES_WAY=1 rec holds the clone's caller at its clone
# event until the new thread runs, so that the clone's end is seen while
# it runs, as on a loaded machine. Patched under it there, its edges before
# the patching went uncounted in rec and counted in replay (which patches
# with the thread still at its start): 7 replays of 8 diverged ("went
# past its point"), and one landing inside a moved instruction died of
# SIGTRAP under rec (t2217 in CI). Patched at the first call end after,
# with no thread running or standing inside a place to patch: replay,
# tseek and gdbstub as recorded.
. "$(dirname "$0")/test-lib.sh"
require_tprog clonespin
require_gdb
unset REWIND_NO_COUNT

test_expect_success 'output differs between native runs' '
	differs_natively "$T/clonespin"
'
# rec_seed SEED: records clonespin with --chaos=SEED and the new thread
# let run before the clone's end; leaves rec.out, rec.err, rec.status.
rec_seed () {
	trace=$scratch/chaos.$1
	REWIND_CLONE_GIVES_WAY=1 run_tool rec -o "$trace" --chaos="$1" "$T/clonespin" \
		>rec.out 2>rec.err.raw </dev/null
	echo $? >rec.status
	awk 'NR <= 2 && /^rec: (recording to |chaos seed [0-9]+$)/ { next } { print }' \
		rec.err.raw >rec.err
}
test_expect_success 'the new thread runs first: replay prints the same bytes' '
	late=0 &&
	for seed in 1 2 3 4 5 6; do
		rec_seed $seed && expect_status "$(cat rec.status)" 0 &&
		replay_cmp || return 1
		if tdump "$trace" | grep "its code patched for counting now" | grep -vq " clone("; then
			late=$((late + 1))
		fi
	done &&
	echo "$late of 6 patched after the clone" &&
	{ ! tdump "$trace" | grep -q "^0 .* start .*counted=[1-9][0-9]* lazily" ||
	  test $late -eq 6; }
'
test_expect_success 'and its last trace under tseek and replay --to' '
	end=$(tdump "$trace" | awk "END { print \$1 }") &&
	run_tool replay --to $((end - 3)) "$trace" >before 2>&1 &&
	run_tool tseek --quiet --every $((end / 4 + 1)) "$trace" &&
	replay_cmp &&
	run_tool replay --to $((end - 3)) "$trace" >after 2>&1 &&
	test_cmp_bytes before after
'
test_expect_success 'and under gdbstub to the end' '
	gdb_cmp "$T/clonespin"
'
test_expect_success 'and recorded without the knob' '
	rec_replay_cmp "$T/clonespin"
'
test_done
