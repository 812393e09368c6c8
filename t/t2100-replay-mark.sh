#!/bin/bash
# t2100-replay-mark.sh: replay -M prefixes each re-emitted line with
# "[EVENT:PID] ", the number of the event that wrote it (the same number tdump
# shows for that write) and the recorded pid of the process that wrote it.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 6
'
test_expect_success 'replay -M prefixes every line with [N:PID] ' '
	run_tool replay -M "$trace" >m.out 2>m.err &&
	test $(wc -l <m.out) = 6 &&
	! grep -vE "^\[[0-9]+:[0-9]+\] line [0-9] [0-9a-f]{8}\$" m.out
'
test_expect_success 'without the prefixes it is the recorded output' '
	sed -E "s/^\[[0-9]+:[0-9]+\] //" m.out >plain &&
	test_cmp_bytes rec.out plain
'
test_expect_success 'the numbers grow' '
	sed -E "s/^\[([0-9]+):.*/\1/" m.out >nums &&
	sort -n -u nums >sorted &&
	test_cmp_bytes nums sorted
'
test_expect_success 'the numbers are those of the writes in tdump' '
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump >writes &&
	test_cmp_bytes writes nums
'
test_expect_success 'each write line in tdump carries the text of the line' '
	ok=1 &&
	while read -r n; do
		line=$(grep "^\[$n:[0-9]*\] " m.out | sed -E "s/^\[[0-9]+:[0-9]+\] //") &&
		grep "^$n " dump | grep -Fq "\"$line\\n\"" || { echo "event $n: $line"; ok=0; }
	done <nums &&
	test $ok = 1
'
test_expect_success '-M marks stderr lines too' '
	rec_replay_cmp "$T/lines" 4 mix &&
	run_tool replay -M "$trace" >m2.out 2>m2.err &&
	test $(wc -l <m2.err) = 2 &&
	! grep -vE "^\[[0-9]+:[0-9]+\] line [13] " m2.err
'
test_done
