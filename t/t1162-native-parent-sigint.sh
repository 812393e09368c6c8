#!/bin/bash
# t1162-native-parent-sigint.sh: a program that sends SIGINT to its parent.
# Without rec the parent is a shell, which lives on; under rec it is rec,
# which passed the signal on to the program's group and so killed the
# program (130). rec now tells a signal the program sent it from one sent
# from outside, and lets the first go: the program goes on as natively,
# and the trace replays. The parent shell catches SIGINT (a trap), so
# that the signal cannot end it natively before it waits for the program.
. "$(dirname "$0")/test-lib.sh"
require_tprog native

test_expect_success 'SIGINT to the parent, natively' '
	bash -c "trap : INT; \"\$0\" parentint; echo parent \$?" "$T/native" >nat.out 2>nat.err </dev/null &&
	test_cmp_bytes nat.out - <<-\END
	sending
	kill 0
	alive
	parent 3
	END
'
test_expect_success 'SIGINT to the parent, under rec: rec lives on, as the shell did' '
	trace=$scratch/trace &&
	bash -c "trap : INT; rec -o \"\$1\" -- \"\$0\" parentint; echo parent \$?" "$T/native" "$trace" \
		>rec.all 2>rec.err.raw </dev/null &&
	test_cmp_bytes nat.out rec.all &&
	strip_rec_line rec.err.raw >rec.err &&
	test_cmp_bytes nat.err rec.err
'
test_expect_success 'and the trace replays' '
	sed "\$d" rec.all >rec.out &&
	echo 3 >rec.status &&
	replay_cmp "$scratch/trace"
'
# SIGINT to rec from outside still reaches the program: t1151, t1154.
test_done
