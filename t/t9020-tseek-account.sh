#!/bin/bash
# t9020-tseek-account.sh: tseek's closing summary on stderr: its figures
# (checkpoints, first..last of the trace's events, index bytes) are those
# of --list, tdump and the files; the stretch where a vfork child runs
# (no copy can be made) is named with its events and why; --quiet prints nothing; on a terminal
# the progress line is rewritten in place.
. "$(dirname "$0")/test-lib.sh"
require_tprog vforkcalls
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

test_expect_success 'record vforkcalls (a vfork child making calls)' '
	rec_replay_cmp "$T/vforkcalls" &&
	run_tool tdump "$trace" >dump
'
test_expect_success 'the summary line says what --list, tdump and the files say' '
	run_tool tseek --every 1 "$trace" >out 2>err &&
	test ! -s out &&
	run_tool tseek --list "$trace" >list &&
	n=$(($(wc -l <list) - 1)) && test $n -ge 10 &&
	first=$(awk "NR == 2 { print \$1 }" list) &&
	last=$(awk "END { print \$1 }" list) &&
	end=$(awk "END { print \$1 }" dump) &&
	bytes=$(find "$trace/seek" -type f -printf "%s\n" | awk "{ s += \$1 } END { print s }") &&
	want="tseek: $n checkpoints, events $first..$last of $end, index $bytes bytes, " &&
	head -n 1 err >line &&
	grep -qF "$want" line || { echo "want: $want"; cat err; return 1; }
'
# From the vfork until its result (the child ran and ended): no
# checkpoint, and the line says so.
test_expect_success 'the stretch of the vfork child, with its events and why' '
	vf=$(grep " syscall vfork() \.\.\.$" dump | cut -d" " -f1) &&
	ret=$(grep " sysret vfork() = " dump | cut -d" " -f1) &&
	test -n "$vf" && test -n "$ret" &&
	grep "^tseek: no checkpoint between events $((vf - 1)) and " err >gap &&
	test $(wc -l <gap) = 1 &&
	read -r _ _ _ _ _ a _ b _ _ _ from rest <gap &&
	from=${from%%)*} &&
	echo "after $a, due from $from, until $b; vfork $vf, its result $ret" &&
	test $from = $vf && test $b -ge $ret &&
	grep -q "): a vfork under way (at [0-9]* events)" gap &&
	! awk -v a=$a -v b=$b "NR > 1 && \$1 > a && \$1 < b" list | grep -q .
'
test_expect_success '--quiet: nothing on stderr, the same index' '
	run_tool tseek --quiet --every 1 "$trace" >out 2>err &&
	test ! -s out && test ! -s err &&
	run_tool tseek --list "$trace" >list2 &&
	test_cmp_bytes list list2
'
test_expect_success '--quiet keeps errors' '
	run_tool tseek --quiet "$scratch/nonexistent" >out 2>err
	expect_status $? 125 &&
	one_line_error err "^tseek: .*nonexistent"
'
if command -v script >/dev/null 2>&1; then test_set_prereq SCRIPT; fi
# script(1) gives tseek a terminal for stderr.
test_expect_success SCRIPT 'on a terminal: the progress line is rewritten in place, then the summary' '
	run_tool script -qec "tseek --every 1 $trace" /dev/null </dev/null >tty.out &&
	tr "\r" "\n" <tty.out >lines &&
	grep -q "^tseek: [0-9]* checkpoints, events " lines &&
	grep -q "^tseek: event [0-9]*, [0-9]* checkpoints, [0-9]*% of the events file, [0-9]* s" lines &&
	head -c 14 tty.out | grep -q "^.tseek: event "
'
test_done
