#!/bin/bash
# t2050-replay-buffered.sh: the calls rec's preloaded library makes without
# a stop (syscall buffering) are in the trace as ordinary numbered events,
# replay byte for byte (answered inside the process, or each traced with
# REWIND_NO_BUFFER=1 at replay, to the same state), with a held signal, a
# child and a thread about, and a buffered call that differs at replay is
# a divergence naming it.
. "$(dirname "$0")/test-lib.sh"
require_tprog bufcalls
[ -n "${REWIND_NO_BUFFER:-}" ] && [ "$REWIND_NO_BUFFER" != 0 ] &&
	skip_all 'REWIND_NO_BUFFER is set'

# buffered DUMP: how many calls of the trace's JSON dump were buffered.
buffered () {
	grep -c '"buffered":true' "$1"
}

test_expect_success 'file, clock and random calls: buffered, replayed' '
	differs_natively "$T/bufcalls" &&
	rec_replay_cmp "$T/bufcalls" &&
	run_tool tdump --json "$trace" >dump.json &&
	test $(buffered dump.json) -gt 4000
'
test_expect_success 'tdump numbers them like any other event' '
	run_tool tdump "$trace" >dump &&
	run_tool tdump "$trace" | awk "{ if (\$1 != NR - 1) exit 1 }" &&
	grep -q "write(4, \"[0-9]* [0-9]*\\\\n\", [0-9]*) = [0-9]*" dump &&
	grep -q "pwrite64(3, \"PATCH\", 5, 3) = 5" dump &&
	grep -q "fstat(3, {st_mode=S_IFREG" dump &&
	grep -q "pread64(3, " dump &&
	grep -q "newfstatat(AT_FDCWD, \"data.tmp\", {st_mode=S_IFREG" dump &&
	grep -q "newfstatat(AT_FDCWD, \"no-such-file\", .*ENOENT" dump &&
	grep -q "access(\"data.tmp\", R_OK) = 0" dump &&
	grep "\"name\":\"newfstatat\"" dump.json | grep -q "\"buffered\":true" &&
	grep "\"name\":\"access\"" dump.json | grep -q "\"buffered\":true"
'
test_expect_success 'replay --to a buffered event stops there' '
	ev=$(grep "\"buffered\":true" dump.json | sed -n "3000s/^{\"event\":\([0-9]*\),.*/\1/p") &&
	test -n "$ev" &&
	run_tool replay --to $ev "$trace" >to.out &&
	grep -q "^-- stopped after event $ev --" to.out &&
	grep "^$ev " dump >want &&
	grep "^$ev " to.out >got &&
	test_cmp_bytes want got
'
test_expect_success 'replay answers buffered calls in the process, or each traced: same output, same state' '
	REWIND_NO_BUFFER=1 run_tool replay "$trace" >traced.out 2>traced.err &&
	test_cmp_bytes rec.out traced.out &&
	for n in $ev $((ev + 1)) $((ev + 7)); do
		run_tool replay --to $n "$trace" >in.$n &&
		REWIND_NO_BUFFER=1 run_tool replay --to $n "$trace" >tr.$n &&
		test_cmp_bytes tr.$n in.$n || return 1
	done
'
test_expect_success 'REWIND_NO_BUFFER=1: the same calls, none buffered' '
	REWIND_NO_BUFFER=1 rec_replay_cmp "$T/bufcalls" &&
	run_tool tdump --json "$trace" >nobuf.json &&
	test $(buffered nobuf.json) = 0 &&
	test $(grep -c "\"name\":\"write\"" nobuf.json) = $(grep -c "\"name\":\"write\"" dump.json)
'
test_expect_success 'timer signals during a stretch of buffered calls' '
	differs_natively "$T/bufcalls" sig &&
	rec_replay_cmp "$T/bufcalls" sig &&
	run_tool tdump --json "$trace" >sig.json &&
	test $(buffered sig.json) -gt 0 &&
	test $(grep -c "\"kind\":\"signal\"" sig.json) -ge 5
'
test_expect_success 'a child process makes buffered calls too' '
	differs_natively "$T/bufcalls" fork &&
	rec_replay_cmp "$T/bufcalls" fork &&
	run_tool tdump --json "$trace" >fork.json &&
	test $(grep "\"buffered\":true" fork.json | sed "s/.*\"tid\":\([0-9]*\),.*/\1/" | sort -u | wc -l) = 2
'
test_expect_success 'two threads make buffered calls' '
	differs_natively "$T/bufcalls" threads &&
	rec_replay_cmp "$T/bufcalls" threads &&
	run_tool tdump --json "$trace" >thr.json &&
	test $(buffered thr.json) -gt 0
'
test_expect_success 'a pipe in place of a closed file, or of a spawned child'"'"'s file: traced' '
	differs_natively "$T/bufcalls" reuse &&
	rec_replay_cmp "$T/bufcalls" reuse &&
	grep -q "^pipe at 3 (was the file'"'"'s 3): x" rec.out &&
	grep -q "^stdin pipe after spawn: x" rec.out &&
	run_tool tdump --json "$trace" >reuse.json &&
	test $(buffered reuse.json) -gt 0 &&
	! grep "\"name\":\"read\",\"nr\":0,\"args\":\[[03]," reuse.json | grep -q "\"ret\":1,.*buffered"
'
if test_have_prereq RDRAND; then
	test_expect_success 'a buffered write that differs at replay is a divergence' '
		rec_prog "$T/bufcalls" rdrand &&
		check_status rec.status 0 &&
		for i in 1 2 3 4 5 6; do
			run_tool replay "$trace" >out 2>err
			st=$?
			test $st = 0 || break
		done &&
		expect_status $st 125 &&
		ev=$(grep -Eo "divergence at event [0-9]+" err | cut -d" " -f4) &&
		run_tool tdump --json "$trace" | grep "^{\"event\":$ev," | grep -q "\"buffered\":true"
	'
else
	test_skip 'a buffered write that differs at replay is a divergence' 'no rdrand'
fi
test_expect_success 'buffered writes the kernel took in part or not at all: inputs read by rec, replayed' '
	differs_natively "$T/bufcalls" short &&
	rec_replay_cmp "$T/bufcalls" short &&
	grep -qx "8 -1 64" rec.out && grep -qx "32 -1 64" rec.out &&
	run_tool tdump --json "$trace" >short.json &&
	test $(grep "\"name\":\"write\"" short.json | grep -c "\"buffered\":true") = 12 &&
	run_tool tdump "$trace" | grep "write(3, \".*\"\.\.\., 100) = 8$"
'
# Under rec the library logs a call while its log holds less than 1 MiB
# (BUF_REC_DATA), whatever the call may take: the first call after goes
# traced, and rec empties the log.
test_expect_success 'reads of 300000 bytes: the fifth traced; one of 1000000 into the empty log buffered' '
	differs_natively "$T/bufcalls" logfill &&
	rec_replay_cmp "$T/bufcalls" logfill &&
	run_tool tdump --json "$trace" >fill.json &&
	grep "\"name\":\"read\",\"nr\":0,\"args\":\[[0-9]*,[0-9]*,[13]00000*\]" fill.json |
		sed "s/.*\"args\":\[[0-9]*,[0-9]*,\([0-9]*\)\].*\"errno\":null\(,\"buffered\":true\)*.*/\1\2/" >reads &&
	printf "%s\n" 300000,\"buffered\":true 300000,\"buffered\":true 300000,\"buffered\":true \
		300000,\"buffered\":true 300000 1000000,\"buffered\":true >want &&
	test_cmp_bytes want reads
'
# A compiler's search of its include paths and realpath's readlinks fail
# in thousands: the library answers those at replay too (until stop 51
# each stopped, as anything failed with an input did: 8,695 stops of the
# 13-file make's replay). Counted by replay's waits, under strace.
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
test_expect_success STRACE 'failed lookups: buffered, answered in the process at replay' '
	differs_natively "$T/bufcalls" lookups &&
	rec_replay_cmp "$T/bufcalls" lookups &&
	grep -qx "4000 failed, clocks [0-9a-f]*" rec.out &&
	run_tool tdump --json "$trace" >look.json &&
	test $(grep "\"errno\":\"E" look.json | grep -c "\"buffered\":true") -ge 4000 &&
	run_tool strace -o waits -e trace=wait4 replay "$trace" >look.out &&
	test_cmp_bytes rec.out look.out &&
	test $(grep -c "^wait4(" waits) -lt 1000
'
# rec's stdout on /dev/null: a write to it is still the program's output,
# which replay prints, so it is never buffered (a separate open of
# /dev/null may be).
test_expect_success 'with stdout on /dev/null, a direct write to it is replayed as output' '
	run_tool rec -o c-null sh -c "echo direct \$\$; echo junk >/dev/null" >/dev/null 2>&1 &&
	run_tool replay c-null >null.out 2>null.err &&
	grep -qx "direct [0-9]*" null.out && test $(wc -l <null.out) = 1 &&
	test ! -s null.err
'
test_done
