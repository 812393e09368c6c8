#!/bin/bash
# t9025-tseek-gdb-count.sh: gdbstub -g N on a counted trace
# started from a tseek checkpoint taken at a preemption goes on exactly as
# from the start: the checkpoint carries counting's patched places and
# counts, and the preemption's own memory blocks are read when the next
# one is built on them. gdb sees the same thread, the same steps through
# the counted loop, and the original code bytes, with the index and
# without it.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
require_gdb
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }
# Counting is cleared of REWIND_NO_COUNT, which make check's run with the
# fallbacks forced sets, as in t8070: this tests counting's checkpoints.

cat >steps.gdb <<'END'
set pagination off
echo @@ steps\n
info threads
disassemble worker
disassemble step
x/2i $pc
set $i = 0
while $i < 40
  stepi
  printf "pc %lx\n", $pc
  set $i = $i + 1
end
x/2i $pc
monitor when
echo @@ end\n
END

test_expect_success 'record counting, counted' '
	REWIND_NO_COUNT= rec_replay_cmp "$T/counting" 200 &&
	run_tool tdump "$trace" >dump &&
	grep -q " preempt at .* count=" dump &&
	awk "\$3 == \"preempt\" { print \$1 }" dump | sed -n "4p;9p" >evs &&
	test $(wc -l <evs) = 2
'
# at EV: gdb's view of 40 steps from gdbstub -g EV, in at.EV.
at () {
	{ echo "target remote | $REWIND_BIN/gdbstub -g $1 $trace"; cat steps.gdb; } >g.gdb &&
	gdb_run "$T/counting" g.gdb
	not_signalled $? &&
	grep -q "^@@ end" gdb.out &&
	! grep -Ei "corrupt|divergence|not re-executed" gdb.out &&
	gdb_section steps >"$2"
}
test_expect_success 'without an index: 40 steps from two preemptions' '
	for ev in $(cat evs); do
		at $ev before.$ev &&
		grep -q "^Current event: " before.$ev &&
		test $(grep -c "^pc " before.$ev) = 40 || return 1
	done
'
test_expect_success 'with checkpoints at those preemptions: the same view' '
	run_tool tseek --quiet --every 1 "$trace" &&
	for ev in $(cat evs); do
		run_tool tseek --list "$trace" | grep -q "^$ev " &&
		at $ev after.$ev &&
		test_cmp_bytes before.$ev after.$ev || return 1
	done
'
test_done
