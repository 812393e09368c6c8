#!/bin/bash
# t2180-replay-huge-mappings.sh: huge mappings of which ten pages are
# used while a thread spins (hugemap.c): a reservation of 1 TiB
# (PROT_NONE, MAP_NORESERVE), a private read-write mapping of a 64 GiB
# sparse file, and a memfd of 16 GiB mapped shared. Each is recorded and
# replayed byte for byte, and replayed from tseek's checkpoints, without
# walking the whole size (rec hashed the files whole and read them at
# each preemption; tseek saved the mappings whole).
. "$(dirname "$0")/test-lib.sh"
require_tprog hugemap

for mode in reserve hole memfd; do
	test_expect_success "$mode: native output differs (token)" '
		differs_natively "$T/hugemap" $mode
	'
	test_expect_success "$mode: recorded and replayed" '
		rec_replay_cmp "$T/hugemap" $mode &&
		grep -q "^$mode: 10 pages, sum [0-9a-f]*$" rec.out
	'
	# A checkpoint holds the used pages only, and is made again (a 1 TiB
	# range was mapped with reserve, which failed: replay started over).
	test_expect_success "$mode: replayed from a checkpoint" '
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
done
test_done
