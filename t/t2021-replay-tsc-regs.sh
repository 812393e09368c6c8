#!/bin/bash
# t2021-replay-tsc-regs.sh: with rdtsc stopped by patched code
# (REWIND_NO_TSC_TRAP=1), the dynamic loader's own rdtsc is recorded, so
# replay --to N shows the same registers every time.
. "$(dirname "$0")/test-lib.sh"
require_tprog random
export REWIND_NO_TSC_TRAP=1

test_expect_success 'record random; replay matches' '
	rec_replay_cmp "$T/random"
'
test_expect_success 'the loader runs rdtsc before it opens libc, and it is in the trace' '
	tdump "$trace" >dump &&
	grep -q "^0 .* rdtsc=patched" dump &&
	first=$(awk "\$3 == \"rdtsc\" { print \$1; exit }" dump) &&
	libc=$(grep "openat(.*libc\.so" dump | awk "{ print \$1; exit }") &&
	test -n "$first" && test -n "$libc" && test "$first" -lt "$libc"
'
test_expect_success 'replay --to N shows the same registers twice, around every rdtsc' '
	evs=$(awk "\$3 == \"rdtsc\" { print \$1; print \$1 + 1 }" dump | head -n 12) &&
	test -n "$evs" &&
	bad= &&
	for n in $evs; do
		run_tool replay --to $n "$trace" >a.$n 2>&1 &&
		run_tool replay --to $n "$trace" >b.$n 2>&1 &&
		grep -q "^rbx " a.$n && test_cmp_bytes a.$n b.$n || bad="$bad $n"
	done &&
	test -z "$bad"
'
test_done
