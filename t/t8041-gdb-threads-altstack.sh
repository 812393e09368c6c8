#!/bin/bash
# t8041-gdb-threads-altstack.sh: a checkpoint gives each thread it makes
# again its alternate signal stack: in altstack.c two threads take a
# signal on theirs and write from a buffer there, so going back to just
# after a thread set its stack and on through the signal diverges (the
# write's address) if the copy lost it.
. "$(dirname "$0")/test-lib.sh"
require_tprog altstack
require_gdb

test_expect_success 'altstack prints something else each native run' '
	differs_natively "$T/altstack"
'
test_expect_success 'record altstack; replay matches; both signals on the alternate stack' '
	rec_replay_cmp "$T/altstack" &&
	test $(grep -c "^signal 10 on the alternate stack$" rec.out) = 2
'
test_expect_success 'gdb: back to after each sigaltstack, then on to the end' '
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^sigaltstack\\(/ { print \$1 + 1 }" dump >evs &&
	test $(wc -l <evs) = 2 &&
	{
		echo "set pagination off" &&
		echo "handle SIGUSR1 nostop noprint pass" &&
		echo "target remote | $REWIND_BIN/gdbstub $trace" &&
		echo "continue" &&
		for ev in $(cat evs); do
			echo "monitor goto $ev" &&
			echo "maint flush register-cache" &&
			echo "maint flush dcache" &&
			echo "continue" || return 1
		done
	} >a.gdb &&
	REWIND_MARK_EVERY=0.00001 gdb_run "$T/altstack" a.gdb
	not_signalled $? &&
	! grep -i divergence gdb.out &&
	test $(grep -c "^No more reverse-execution history.$" gdb.out) = 3 &&
	test $(grep -c "^Current event: " gdb.out) = 2
'
test_done
