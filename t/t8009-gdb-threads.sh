#!/bin/bash
# t8009-gdb-threads.sh: gdb on a threaded replay (threads.c: 4 workers race
# on a counter): info threads, switching threads, breakpoints and a
# watchpoint hit in several threads, and backwards the same hits reversed.
. "$(dirname "$0")/test-lib.sh"
require_tprog threads
require_gdb

src=$TEST_DIR/prog/threads.c
wline=$(grep -n 'counter = v + 1;' "$src" | cut -d: -f1)
tr=$scratch/trace.1

# loop N CMD: gdb lines that run CMD N times, printing after each which
# worker stopped and the counter.
loop () {
	printf '%s\n' 'set $i = 0' "while \$i < $1" "$2" \
		'printf "@hit id=%d counter=%ld\n", id, counter' 'set $i = $i + 1' end
}
# hits SECTION: the "id counter" pairs printed in a section, one a line.
hits () { gdb_section "$1" gdb.out | sed -n 's/^@hit id=\([0-9]*\) counter=\([0-9]*\)$/\1 \2/p'; }

test_expect_success 'threads prints something else each native run' '
	differs_natively "$T/threads"
'
test_expect_success 'record threads; replay matches' '
	rec_replay_cmp "$T/threads" &&
	test "$trace" = "$tr"
'
test_expect_success 'gdb: a breakpoint in the workers, 12 times forwards, 11 back' '
	cat >a.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break threads.c:$wline
	echo @@ fwd\n
	$(loop 12 continue)
	echo @@ threads\n
	info threads
	echo @@ main\n
	thread 1
	bt
	echo @@ back\n
	$(loop 11 reverse-continue)
	echo @@ end\n
	END
	gdb_run "$T/threads" a.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
# Each hit follows the end of a worker'"'"'s sched_yield: as many threads
# hit as ended the first 12 of those calls in the recorded schedule (a
# call during which others ran ends in a sysret line).
test_expect_success 'the hits came in the threads the schedule says, and gdb said so' '
	hits fwd >fwd &&
	test $(wc -l <fwd) = 12 &&
	run_tool tdump "$tr" >dump &&
	grep -E "^[0-9]+ [0-9]+ (syscall sched_yield\(\) = |sysret sched_yield\()" dump |
		head -n 12 | cut -d" " -f2 | sort -u >yielders &&
	test $(cut -d" " -f1 fwd | sort -u | wc -l) = $(wc -l <yielders) &&
	gdb_section fwd gdb.out | grep -Eq "^\[Switching to Thread [0-9]+\]$" &&
	gdb_section fwd gdb.out | grep -Eq "^Thread [0-9]+ hit Breakpoint 1, worker \(arg=0x[0-3]\)"
'
test_expect_success 'info threads lists main and the worker that stopped' '
	gdb_section threads gdb.out >threads &&
	test $(grep -Ec "^[* ] +[0-9]+ +Thread [0-9]+ " threads) -ge 2 &&
	grep -Eq "^\* +[0-9]+ +Thread [0-9]+ +worker \(arg=" threads
'
test_expect_success 'thread 1 is main, waiting or creating threads' '
	gdb_section main gdb.out >main &&
	grep -Eq "^\[Switching to thread 1 \(Thread [0-9]+\)\]" main &&
	grep -Eq "in main \(\) at .*threads\.c:[0-9]+$" main
'
test_expect_success 'backwards: the same hits, in reverse' '
	hits back >back &&
	head -n 11 fwd | tac >want &&
	test_cmp_bytes want back
'
test_expect_success 'gdb: watch counter from the 4th hit, 5 writes forwards, 4 back' '
	cat >w.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $tr
	break threads.c:$wline
	continue 4
	delete
	watch counter
	echo @@ fwd\n
	$(loop 5 continue)
	echo @@ back\n
	$(loop 4 reverse-continue)
	echo @@ end\n
	END
	gdb_run "$T/threads" w.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out
'
test_expect_success 'backwards each write is seen just before it, in its thread' '
	hits fwd >wf &&
	test $(wc -l <wf) = 5 &&
	gdb_section fwd gdb.out | grep -Ec "^Thread [0-9]+ hit Hardware watchpoint 2: counter$" >n &&
	test $(cat n) = 5 &&
	# Going back, write k (5 to 2) stops before it is made: in its
	# thread, with the counter write k - 1 left (updates race: not k - 1).
	awk "{ id[NR] = \$1; c[NR] = \$2 } END { for (k = 5; k >= 2; k--) print id[k], c[k - 1] }" wf >want &&
	hits back >wb &&
	test_cmp_bytes want wb
'
test_done
