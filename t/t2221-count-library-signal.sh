#!/bin/bash
# t2221-count-library-signal.sh: a signal that lands on a read the syscall
# buffer left traced (libsig.c: 4 MiB preads, too large to log), whose
# handler makes a traced call, while a second thread computes and is
# preempted at a point. The handler runs on the library's frames, whose
# bytes (and the registers the library left in the signal frame) differ
# between rec and replay: rec leaves them out of the point's hashes as
# it leaves out dead stacks, else replay went past the point without
# finding it (8 of 8 --chaos seeds; xz -T2 interrupted by SIGINT under
# load, t1154, 1 run in 20). Replay, and gdbstub to the end and back.
. "$(dirname "$0")/test-lib.sh"
require_tprog libsig
unset REWIND_NO_COUNT REWIND_NO_BUFFER

test_expect_success 'output differs between native runs' '
	differs_natively "$T/libsig"
'
# point_in_handler: $trace has a point of another thread between a
# signal and the end of its handler (rt_sigreturn).
point_in_handler () {
	tdump --json "$trace" | python3 -c "
import json, sys
inside = set()
for line in sys.stdin:
    r = json.loads(line)
    if r.get(\"kind\") == \"signal\" and r.get(\"async\"):
        inside.add(r[\"tid\"])
    elif r.get(\"kind\") == \"syscall\" and r.get(\"name\") == \"rt_sigreturn\":
        inside.discard(r[\"tid\"])
    elif r.get(\"kind\") == \"preempt\" and r.get(\"point\") and inside - {r[\"tid\"]}:
        sys.exit(0)
sys.exit(1)"
}
test_expect_success PYTHON 'points while a handler runs on the library: replay prints the same bytes' '
	n=0 &&
	for seed in 1 2 3; do
		rec_chaos $seed "$T/libsig" && expect_status "$(cat rec.status)" 0 &&
		replay_cmp || return 1
		point_in_handler && n=$((n + 1))
	done
	echo "$n of 3 with such a point" &&
	{ ! grep -q "^0 .* start .*counted=[1-9]" <(tdump "$trace") || test $n -ge 1; }
'
test_expect_success GDB 'gdbstub runs the last trace to its end and back to its start' '
	gdb_end_and_back "$T/libsig"
'
test_expect_success 'and without --chaos' '
	rec_replay_cmp "$T/libsig"
'
test_done
