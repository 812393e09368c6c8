#!/bin/bash
# t9010-tseek-threads-tree.sh: tseek makes checkpoints after a program
# starts threads or processes (each process copied, its threads made
# again): replay --to N from them prints exactly the event and registers
# it printed before the index existed, in threads.c, a shell pipeline and
# python3 with threads; a plain replay still writes every byte.
. "$(dirname "$0")/test-lib.sh"
require_tprog threads
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

# at_line FILE: FILE with replay's stop line on a line of its own (python
# writes a line's parts apart, so an event can end mid-line).
at_line () { sed 's/\(.\)\(-- stopped after event \)/\1\n\2/' "$1"; }
# stop_part FILE: replay --to's own lines, from "-- stopped" on.
stop_part () { at_line "$1" | sed -n '/^-- stopped after event /,$p'; }
# out_part FILE: the program's output before them.
out_part () { at_line "$1" | sed '/^-- stopped after event /,$d'; }

# pick NAME: events of $trace to stop at, into NAME.evs: eight spread
# over what follows the first clone, the last two; replay --to each
# before any index.
pick () {
	run_tool tdump "$trace" >$1.dump &&
	clone=$(grep -m 1 -E " = [0-9]+ \(new (thread|process)" $1.dump | cut -d" " -f1) &&
	test -n "$clone" && echo $clone >$1.clone &&
	last=$(awk "\$3 == \"syscall\" { e = \$1 } END { print e }" $1.dump) &&
	step=$(((last - clone) / 8 + 1)) &&
	{ seq $((clone + 1)) $step $((last - 2)); echo $((last - 1)); echo $last; } >$1.evs &&
	for n in $(cat $1.evs); do
		run_tool replay --to $n "$trace" >$1.before.$n 2>&1 || return 1
	done
}
# index NAME: tseek --every 3; checkpoints after the first clone.
index () {
	run_tool tseek --quiet --every 3 "$trace" >$1.ts.out 2>$1.ts.err &&
	test ! -s $1.ts.out && test ! -s $1.ts.err &&
	run_tool tseek --list "$trace" >$1.list &&
	test $(awk -v c=$(cat $1.clone) "NR > 1 && \$1 > c" $1.list | wc -l) -ge 3
}
# seek NAME: replay --to N with the index: no message, the same event and
# registers, and the output before them a tail of the whole.
seek () {
	for n in $(cat $1.evs); do
		run_tool replay --to $n "$trace" >$1.after.$n 2>$1.err.$n || return 1
		test ! -s $1.err.$n || { cat $1.err.$n; return 1; }
		stop_part $1.before.$n >want && stop_part $1.after.$n >got &&
		test_cmp_bytes want got || return 1
		out_part $1.before.$n >full && out_part $1.after.$n >tail &&
		tail -c $(wc -c <tail) full >want && test_cmp_bytes want tail || return 1
	done &&
	test $(cat $1.after.* | grep -c "^rip ") -ge 5
}

test_expect_success 'threads prints something else each native run' '
	differs_natively "$T/threads"
'
test_expect_success 'threads: record, index, replay --to from checkpoints' '
	rec_replay_cmp "$T/threads" &&
	pick thr && index thr && seek thr &&
	replay_cmp
'
pipeline="ls / | sort | head -n 3; date +%N"
test_expect_success 'a shell pipeline: record, index, replay --to from checkpoints' '
	differs_natively sh -c "$pipeline" &&
	rec_replay_cmp sh -c "$pipeline" &&
	pick sh && index sh && seek sh &&
	replay_cmp
'
py=/usr/bin/python3
if [ -x $py ]; then test_set_prereq PYTHON; fi
cat >threads.py <<'END'
import random, threading
def work(i):
    print("thread", i, random.random())
ts = [threading.Thread(target=work, args=(i,)) for i in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("done", random.random())
END
test_expect_success PYTHON 'python3 with threads: record, index, replay --to from checkpoints' '
	differs_natively $py "$scratch/threads.py" &&
	rec_replay_cmp $py "$scratch/threads.py" &&
	pick py && index py && seek py &&
	replay_cmp
'
test_done
