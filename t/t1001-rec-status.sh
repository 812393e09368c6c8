#!/bin/bash
# t1001-rec-status.sh: rec exits with the program's status, 128+N when a
# signal N killed it, and replay exits with the recorded one.
. "$(dirname "$0")/test-lib.sh"
require_tprog status

test_expect_success 'true exits 0, false exits 1' '
	run_tool rec -o t1 true >/dev/null 2>&1 &&
	{ run_tool rec -o t2 false >/dev/null 2>&1; test $? = 1; } &&
	run_tool replay t1 &&
	{ run_tool replay t2; test $? = 1; }
'
for n in 0 3 42 255; do
	test_expect_success "exit $n is passed on and replayed" "
		RR_EXPECT=$n rec_replay_cmp \"\$T/status\" exit $n
	"
done
for s in 15:TERM 9:KILL 6:ABRT 10:USR1; do
	n=${s%%:*}
	test_expect_success "death by SIG${s#*:} gives $((128 + n)), replayed" "
		RR_EXPECT=$((128 + n)) rec_replay_cmp \"\$T/status\" signal $n
	"
done
test_done
