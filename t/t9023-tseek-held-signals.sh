#!/bin/bash
# t9023-tseek-held-signals.sh: a signal the run's own children sent (a
# SIGCHLD blocked, pending) keeps no checkpoint from being made, as the
# engine lets none of them in: sigheld gets checkpoints while it holds
# one, and a make -j2 process tree up to its exit; replay --to from them
# prints exactly the event and registers it printed before the index.
. "$(dirname "$0")/test-lib.sh"
require_tprog sigheld
[ -x "$REWIND_BIN/tseek" ] || { echo "Bail out! no tseek in $REWIND_BIN (run make)"; exit 1; }

# before NAME EVENTS...: replay --to each event before any index.
before () {
	local name=$1 n
	shift
	echo "$@" >$name.evs
	for n in "$@"; do
		run_tool replay --to $n "$trace" >$name.before.$n 2>&1 || return 1
	done
}
# after NAME: replay --to each again, with the index: no message, the
# same event and registers, and the output before them a tail of it.
after () {
	local n
	for n in $(cat $1.evs); do
		run_tool replay --to $n "$trace" >$1.after.$n 2>$1.err.$n || return 1
		test ! -s $1.err.$n || { cat $1.err.$n; return 1; }
		sed -n "/^-- stopped after event /,\$p" $1.before.$n >want &&
		sed -n "/^-- stopped after event /,\$p" $1.after.$n >got &&
		test -s want && test_cmp_bytes want got || return 1
		sed "/^-- stopped after event /,\$d" $1.before.$n >full &&
		sed "/^-- stopped after event /,\$d" $1.after.$n >tail &&
		tail -c $(wc -c <tail) full >want && test_cmp_bytes want tail || return 1
	done
}

test_expect_success 'sigheld: checkpoints while SIGCHLD is held, and replay --to from them' '
	rec_replay_cmp "$T/sigheld" &&
	run_tool tdump "$trace" >dump &&
	gone=$(grep -m 1 " task-exit " dump | cut -d" " -f1) &&
	unblock=$(grep " rt_sigprocmask(SIG_UNBLOCK" dump | cut -d" " -f1) &&
	test -n "$gone" && test -n "$unblock" &&
	before held $((gone + 3)) $(((gone + unblock) / 2)) $((unblock - 1)) $((unblock + 2)) &&
	run_tool tseek --every 1 "$trace" >out 2>err &&
	cat err &&
	run_tool tseek --list "$trace" >list &&
	n=$(awk -v a=$gone -v b=$unblock "NR > 1 && \$1 > a && \$1 < b" list | wc -l) &&
	echo "$n checkpoints between events $gone and $unblock" &&
	test $n -ge 10 &&
	! grep -q "held by the kernel" err &&
	after held &&
	replay_cmp
'
if command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then test_set_prereq MAKE; fi
test_expect_success MAKE 'make -j2 of six files: checkpoints up to its exit, and replay --to from them' '
	mkdir -p src &&
	for i in 1 2 3 4 5 6; do echo "int f$i(int x) { return x * $i; }" >src/f$i.c; done &&
	printf "all: f1.o f2.o f3.o f4.o f5.o f6.o\n\t@echo done\n%%.o: %%.c\n\tcc -c -o \$@ \$<\n" >src/Makefile &&
	(cd src && run_tool rec -o "$scratch/mk" make -j2) >mk.out 2>mk.err &&
	trace=$scratch/mk &&
	run_tool tdump "$trace" >mk.dump &&
	end=$(awk "END { print \$1 }" mk.dump) &&
	fork=$(grep -m 1 -E " = [0-9]+ \(new process" mk.dump | cut -d" " -f1) &&
	test -n "$fork" &&
	before mk $((fork + 50)) $((end / 2)) $((end * 3 / 4)) $((end - 1)) &&
	run_tool tseek --every $((end / 20)) "$trace" >out 2>err &&
	cat err &&
	run_tool tseek --list "$trace" >list &&
	last=$(awk "END { print \$1 }" list) &&
	n=$(awk -v f=$fork "NR > 1 && \$1 > f" list | wc -l) &&
	echo "$n checkpoints after the first fork (event $fork), the last at $last of $end" &&
	test $n -ge 5 && test $last -ge $((end - 3)) &&
	after mk
'
test_done
