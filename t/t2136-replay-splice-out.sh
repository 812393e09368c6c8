#!/bin/bash
# t2136-replay-splice-out.sh: splice from a regular file into rec's
# stdout (a pipe) records: rec reads the bytes again from the file, as
# for sendfile, and replay prints them (rec stopped: it took every splice
# to stdout for one from a pipe, whose bytes are gone). From a pipe it
# still stops, and says so.
. "$(dirname "$0")/test-lib.sh"
require_tprog spliceout

test_expect_success 'native output differs (token)' '
	differs_natively "$T/spliceout"
'
test_expect_success 'the spliced bytes replay into a pipe' '
	(run_tool rec -o tr "$T/spliceout" 2>rec.err; echo $? >rec.status) | cat >rec.out &&
	check_status rec.status 0 &&
	(run_tool replay tr 2>replay.err; echo $? >replay.status) | cat >replay.out &&
	check_status replay.status 0 &&
	test_cmp_bytes rec.out replay.out &&
	strip_rec_line rec.err >rec.err.prog &&
	test_cmp_bytes rec.err.prog replay.err &&
	test $(grep -c "^spliced from a file: [0-9a-f]*$" rec.out) = 2 &&
	grep -q "^splice from the position = 30$" rec.err
'
test_expect_success 'from a pipe rec stops and says why' '
	(run_tool rec -o tr2 "$T/spliceout" pipe 2>rec2.err; echo $? >rec2.status) | cat >rec2.out &&
	check_status rec2.status 125 &&
	strip_rec_line rec2.err >reason &&
	one_line_error reason "^rec: the program sent data to stdout with splice, whose bytes rewind cannot recover"
'
test_done
