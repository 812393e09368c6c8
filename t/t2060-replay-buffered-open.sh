#!/bin/bash
# t2060-replay-buffered-open.sh: read-only opens of files and directories,
# their closes, fcntl flag reads and dups, isatty, readlink, the calls of realpath and of directory streams, the
# ids, uname and sysinfo go without a stop under rec (buffered), replay
# byte for byte whether replay answers them in the process or traced, and
# under gdbstub; the opens that could wait or create (a FIFO, /dev/null,
# O_CREAT) stay traced; a file opened without a stop can be mapped.
# sigaction that only asks makes no event at all (the filter lets it
# through: t2085).
. "$(dirname "$0")/test-lib.sh"
require_tprog bufopen

# count DUMP NAME: how many buffered calls named NAME the JSON dump holds.
count () {
	grep "\"name\":\"$2\"" "$1" | grep -c '"buffered":true'
}
nobuf () {
	[ -n "${REWIND_NO_BUFFER:-}" ] && [ "$REWIND_NO_BUFFER" != 0 ]
}

test_expect_success 'opens, closes, fcntl, sigaction, readlink...: recorded and replayed' '
	differs_natively "$T/bufopen" . &&
	rec_replay_cmp "$T/bufopen" . &&
	grep -q "^mapped: data [0-9]*$" rec.out &&
	grep -q "^handler found at 10, flags 0" rec.out &&
	grep -q "^usr1 handled" rec.out &&
	grep -q "^readlink: target-[0-9]*$" rec.out &&
	grep -q "^realpath of the link: No such file or directory /target-[0-9]*$" rec.out &&
	grep -q "^realpath of ../.: ok$" rec.out &&
	grep -q "^dir: \. \.\. data fifo link; after seekdir one; again 5, readdir_r 5, cloexec 1$" rec.out &&
	grep -q "^opendir of a file: NULL Not a directory$" rec.out &&
	run_tool tdump --json "$trace" >dump.json &&
	echo "$trace" >trace.path
'
if nobuf; then
	test_expect_success 'REWIND_NO_BUFFER=1: none of them buffered' '
		! grep -q "\"buffered\":true" dump.json
	'
	test_done
fi
test_expect_success 'they were buffered' '
	test $(count dump.json openat) -ge 150 &&
	test $(count dump.json close) -ge 150 &&
	test $(count dump.json fcntl) -ge 200 &&
	test $(grep "\"name\":\"rt_sigaction\"" dump.json | grep -c "\"args\":\[[0-9]*,0,") = 0 &&
	test $(count dump.json ioctl) -ge 2 &&
	test $(count dump.json readlink) -ge 3 &&
	test $(count dump.json getcwd) -ge 2 &&
	test $(count dump.json getdents64) -ge 4 &&
	test $(count dump.json readlinkat) = 1 &&
	test $(count dump.json getuid) = 1 &&
	test $(count dump.json uname) = 1 &&
	test $(count dump.json sysinfo) = 1
'
test_expect_success 'the FIFO, /dev/null and O_CREAT opens, and the FIFO'"'"'s close, were traced' '
	grep "\"name\":\"openat\"" dump.json | grep -v "\"buffered\":true" >traced &&
	grep -q "\\\\\"./fifo\\\\\", O_RDONLY|O_NONBLOCK" traced &&
	grep -q "\\\\\"/dev/null\\\\\", O_RDONLY" traced &&
	grep -q "\\\\\"./data\\\\\", O_RDONLY|O_CREAT" traced &&
	fifo=$(grep "./fifo" traced | sed "s/.*\"ret\":\([0-9]*\),.*/\1/") &&
	grep "\"text\":\"close($fifo) = 0\"" dump.json | tail -n 1 | grep -qv "\"buffered\":true"
'
test_expect_success 'each traced at replay (REWIND_NO_BUFFER=1): the same bytes' '
	REWIND_NO_BUFFER=1 run_tool replay "$(cat trace.path)" >traced.out 2>traced.err &&
	test_cmp_bytes rec.out traced.out
'
test_expect_success 'replay --to a buffered open stops there' '
	ev=$(grep "\"name\":\"openat\"" dump.json | grep "\"buffered\":true" |
		sed -n "40s/^{\"event\":\([0-9]*\),.*/\1/p") &&
	test -n "$ev" &&
	run_tool replay --to $ev "$(cat trace.path)" >to.out &&
	grep -q "^-- stopped after event $ev --" to.out &&
	grep -q "^$ev [0-9]* syscall openat(AT_FDCWD, \"./data\", O_RDONLY|O_CLOEXEC" to.out
'
if command -v gdb >/dev/null 2>&1; then
	test_expect_success 'gdbstub replays them, each with a stop' '
		cat >run.gdb <<-END &&
		set pagination off
		handle SIGUSR1 nostop noprint pass
		target remote | $REWIND_BIN/gdbstub $(cat trace.path)
		continue
		END
		gdb_run "$T/bufopen" run.gdb &&
		grep -q "^No more reverse-execution history" gdb.out &&
		! grep -qi "divergence" gdb.out &&
		! grep -vxF -f gdb.out rec.out
	'
else
	test_skip 'gdbstub replays them, each with a stop' 'no gdb'
fi
test_done
