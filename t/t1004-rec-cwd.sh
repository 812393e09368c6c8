#!/bin/bash
# t1004-rec-cwd.sh: a trace does not depend on where it was recorded or
# where replay runs: replaying from another directory, by a relative or
# absolute path, after the recording directory is gone, gives the same bytes.
. "$(dirname "$0")/test-lib.sh"
require_tprog fileio

test_expect_success 'record in one directory' '
	mkdir -p a/b &&
	(cd a/b && run_tool rec -o ../../tr "$T/fileio" >../../rec.out 2>../../rec.err.raw) &&
	strip_rec_line rec.err.raw >rec.err &&
	grep -q "^cwd .*/a/b\$" rec.out
'
test_expect_success 'replay from another directory' '
	mkdir -p c && (cd c && run_tool replay ../tr >../r1.out 2>../r1.err) &&
	test_cmp_bytes rec.out r1.out &&
	test_cmp_bytes rec.err r1.err
'
test_expect_success 'replay by absolute path from /' '
	(cd / && run_tool replay "$scratch/tr" >"$scratch/r2.out" 2>"$scratch/r2.err") &&
	test_cmp_bytes rec.out r2.out
'
test_expect_success 'replay after the recording directory is removed' '
	rm -rf a &&
	(cd c && run_tool replay "$scratch/tr" >../r3.out 2>../r3.err) &&
	test_cmp_bytes rec.out r3.out &&
	test_cmp_bytes rec.err r3.err
'
test_expect_success 'replay of a moved trace' '
	mv tr moved &&
	run_tool replay moved >r4.out 2>r4.err &&
	test_cmp_bytes rec.out r4.out
'
test_expect_success 'replay does not touch the replay directory' '
	mkdir -p empty &&
	(cd empty && run_tool replay ../moved >/dev/null 2>&1) &&
	test -z "$(ls -A empty)"
'
test_done
