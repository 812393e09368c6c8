#!/bin/bash
# t9024-tseek-index-growth.sh: a checkpoint names the pages of each MiB
# through one list block in the page store, stored once per content, so
# checkpoints of a program with 64 MiB that changes one page between them
# cost a few KiB each, not 40 bytes a page (640 KiB); replay --to from
# the last and from a middle one shows the state a replay from the
# start shows there.
. "$(dirname "$0")/test-lib.sh"
require_tprog bigtouch
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'record bigtouch' '
	rec_replay_cmp "$T/bigtouch" &&
	run_tool tdump "$trace" >dump &&
	end=$(awk "END { print \$1 }" dump)
'
test_expect_success 'tseek --every 2: many checkpoints, each small' '
	run_tool tseek --quiet --every 2 "$trace" &&
	run_tool tseek --list "$trace" >list &&
	n=$(sed 1d list | wc -l) &&
	echo "$n checkpoints" &&
	test $n -ge 20 &&
	big=$(ls -l "$trace"/seek/cp-* | awk "\$5 > 65536" | wc -l) &&
	echo "$big checkpoint files over 64 KiB" &&
	test $big = 0 &&
	pages=$(stat -c %s "$trace/seek/pages") &&
	echo "page store: $pages bytes" &&
	test $pages -lt $((96 << 20))
'
test_expect_success 'replay --to a middle and the last checkpoint shows what replay from the start shows' '
	for ev in $(sed 1d list | awk "{ print \$1 }" | sed -n "10p;\$p"); do
		mv "$trace/seek" seek.off &&
		run_tool replay --to $ev "$trace" >want.$ev 2>&1 &&
		mv seek.off "$trace/seek" &&
		run_tool replay --to $ev "$trace" >got.$ev 2>got.err &&
		test ! -s got.err &&
		sed -n "/^-- stopped after event /,\$p" want.$ev >w &&
		sed -n "/^-- stopped after event /,\$p" got.$ev >g &&
		test -s w && test_cmp_bytes w g || return 1
	done
'
test_done
