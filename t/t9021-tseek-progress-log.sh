#!/bin/bash
# t9021-tseek-progress-log.sh: tseek whose stderr is no terminal writes a
# progress line every 10 seconds of a long replay (no carriage return),
# as many as its summary's seconds say, then the summary. Slow by nature:
# a program computing for 16 s.
. "$(dirname "$0")/test-lib.sh"
require_tprog longrun
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'record longrun for 16 seconds' '
	mkdir -p run || return 1
	{ sleep 16; touch run/STOP; } </dev/null >/dev/null 2>&1 &
	stopper=$!
	(cd run && REWIND_TIMEOUT=120 run_tool rec -o "$scratch/lr" -- "$T/longrun" STOP) >rec.out 2>rec.err &&
	wait $stopper &&
	tail -n 1 rec.out | grep -qx done
'
test_expect_success 'tseek: a line every 10 s, each on its own, then the summary' '
	REWIND_TIMEOUT=120 run_tool tseek --interval 2 lr >out 2>err &&
	test ! -s out &&
	cat err &&
	! grep -q "$(printf "\r")" err &&
	{ grep "^tseek: event [0-9]*, [0-9]* checkpoints, [0-9]*% of the events file, [0-9]* s$" err >progress || :; } &&
	grep "^tseek: [0-9]* checkpoints, events " err >summary &&
	test $(($(wc -l <err) - $(wc -l <progress))) -ge 1 &&
	awk "{ t = \$(NF - 1); if (t < 10 * NR || t > 10 * NR + 5) exit 1 }" progress &&
	secs=$(sed "s/.* \([0-9]*\)\.[0-9] s\$/\1/" summary) &&
	lines=$(wc -l <progress) &&
	echo "$lines progress lines in $secs s" &&
	test $lines -le $((secs / 10)) && test $lines -ge $((secs / 10 - 1)) &&
	{ test $secs -lt 11 || test $lines -ge 1; }
'
test_done
