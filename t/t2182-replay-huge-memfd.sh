#!/bin/bash
# t2182-replay-huge-memfd.sh: a memfd of 16 GiB mapped shared, of which ten
# pages are used while a thread spins (hugemap.c): recorded and replayed
# byte for byte, and replayed from tseek's checkpoints, without walking
# the whole size (rec read it at each preemption, tseek saved it whole).
. "$(dirname "$0")/test-lib.sh"
require_tprog hugemap

test_expect_success 'native output differs (token)' '
	differs_natively "$T/hugemap" memfd
'
test_expect_success 'recorded and replayed' '
	rec_replay_cmp "$T/hugemap" memfd &&
	grep -q "^memfd: 10 pages, sum [0-9a-f]*$" rec.out
'
# A checkpoint holds the used pages only, and is made again (a 1 TiB
# range was mapped with reserve, which failed: replay started over).
test_expect_success 'replayed from a checkpoint' '
	run_tool tseek --every 10 "$trace" &&
	run_tool tdump "$trace" >dump &&
	n=$(awk "\$3 == \"syscall\" { e = \$1 } END { print e }" dump) &&
	test -n "$n" &&
	run_tool tseek --list "$trace" >list &&
	test $(wc -l <list) -gt 2 &&
	run_tool replay --to "$n" "$trace" >seek.out 2>seek.err &&
	grep -q "^-- stopped after event $n --\$" seek.out &&
	test_cmp_bytes /dev/null seek.err
'
test_done
