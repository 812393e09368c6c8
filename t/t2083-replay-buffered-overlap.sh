#!/bin/bash
# t2083-replay-buffered-overlap.sh: a buffered path call whose output
# overwrites its own path (stat into the buffer holding the name,
# readlink(p, p, n)) is logged with the path the kernel read, saved
# before the call: replay matches it, and tdump shows the real name. So is
# a name that ends just before memory that cannot be read; one that runs
# into it fails with EFAULT, as natively.
. "$(dirname "$0")/test-lib.sh"
require_tprog bufoverlap

nobuf () {
	[ -n "${REWIND_NO_BUFFER:-}" ] && [ "$REWIND_NO_BUFFER" != 0 ]
}

test_expect_success 'outputs over their path: recorded and replayed' '
	differs_natively "$T/bufoverlap" &&
	rec_replay_cmp "$T/bufoverlap" &&
	test $(grep -c "^stat: 0 size 12 " rec.out) = 3 &&
	test $(grep -c "^lstat: 0 link 1 " rec.out) = 3 &&
	test $(grep -c "^stat missing: -1 /nonexistent " rec.out) = 3 &&
	test $(grep -c "^stat inside: 0 size 12 " rec.out) = 3 &&
	test $(grep -c "^readlink: 8 data.tmp " rec.out) = 3 &&
	test $(grep -c "^readlink shifted: 8 lindata.tmp " rec.out) = 3 &&
	test $(grep -c "^readlinkat: 8 data.tmp " rec.out) = 3 &&
	grep -q "^stat at page end: 0 size 12 " rec.out &&
	grep -q "^stat into a hole: -1 EFAULT " rec.out &&
	grep -q "^readlink at page end: 8 data.tmp " rec.out &&
	grep -q "^readlink into a hole: -1 EFAULT " rec.out
'
test_expect_success 'REWIND_NO_BUFFER=1 at replay: each traced, the same' '
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >traced.out 2>traced.err &&
	test_cmp_bytes rec.out traced.out &&
	! grep -i divergence traced.err
'
test_expect_success 'tdump shows the path the kernel read' '
	run_tool tdump "$trace" >dump &&
	run_tool tdump --json "$trace" >dump.json &&
	test $(grep -c "newfstatat(AT_FDCWD, \"data.tmp\", {st_mode=S_IFREG" dump) = 10 &&
	test $(grep -c "newfstatat(AT_FDCWD, \"link.tmp\", {st_mode=S_IFLNK" dump) = 3 &&
	test $(grep -c "newfstatat(AT_FDCWD, \"/nonexistent\", .*ENOENT" dump) = 3 &&
	test $(grep -c "readlink(\"link.tmp\", \"data.tmp\", 64) = 8" dump) = 7 &&
	test $(grep -c "readlinkat(AT_FDCWD, \"link.tmp\", \"data.tmp\", 64) = 8" dump) = 3 &&
	if ! nobuf; then
		test $(grep "\"name\":\"newfstatat\"" dump.json | grep -c "\"buffered\":true") -ge 16 &&
		test $(grep "\"name\":\"readlink\"" dump.json | grep -c "\"buffered\":true") = 7 &&
		test $(grep "\"name\":\"readlinkat\"" dump.json | grep -c "\"buffered\":true") = 3
	fi
'
test_done
