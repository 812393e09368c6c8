#!/bin/bash
# t2004-replay-fileio.sh: file and directory I/O in the working directory
# (open/read/write/pread/lseek/stat/fstat/lstat/getdents) and a pipe replay
# with no files present (replay runs in an empty directory).
. "$(dirname "$0")/test-lib.sh"
require_tprog fileio

test_expect_success 'output differs between native runs' '
	differs_natively "$T/fileio"
'
test_expect_success 'replay writes the recorded bytes and status' '
	rec_replay_cmp "$T/fileio"
'
test_expect_success 'a second replay is identical too' '
	replay_cmp
'
test_done
