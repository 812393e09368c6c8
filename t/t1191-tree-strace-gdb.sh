#!/bin/bash
# t1191-tree-strace-gdb.sh: strace -f and gdb -batch -ex run recorded by
# rec write what they write natively (ids and addresses aside) and
# replay byte for byte. The native runs go through run_tool's timeout
# too: it catches SIGINT and SIGQUIT, so a test run with them ignored
# (a background job of a script) gives both the same dispositions.
. "$(dirname "$0")/test-lib.sh"
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
command -v gdb >/dev/null 2>&1 && test_set_prereq GDB

# The lines of a trace of strace or gdb with ids, addresses and the
# lines of rec's preloaded library made alike.
alike () {
	grep -v -e librewind-buf -e "0x3e0000000000" "$1" |
	sed -e "s/0x[0-9a-f]*/ADDR/g" -e "s/[0-9][0-9][0-9]*/N/g"
}

test_expect_success STRACE 'strace -f: its probe, the seize of its child, its listen' '
	rec_prog strace -f sh -c "echo hi" &&
	check_status rec.status 0 &&
	run_tool tdump "$trace" >dump &&
	grep -q "ptrace(PTRACE_GET_SYSCALL_INFO, [0-9]*, 0x58, 0x[0-9a-f]*) = 33" dump &&
	grep -q "ptrace(PTRACE_SEIZE, [0-9]*, NULL, 0x5f) = 0" dump &&
	grep -q "ptrace(PTRACE_LISTEN, [0-9]*, NULL, NULL) = 0" dump &&
	replay_cmp
'
test_expect_success STRACE 'strace -f: the shell.s calls it shows are the native ones' '
	(run_tool strace -f sh -c "echo hi") >nat.out 2>nat.err &&
	test_cmp_bytes nat.out rec.out &&
	sed -n "/^getuid()/,\$s/(.*//p" nat.err >nat.calls &&
	sed -n "/^getuid()/,\$s/(.*//p" rec.err >rec.calls &&
	grep -qx write rec.calls &&
	test_cmp_bytes nat.calls rec.calls
'
test_expect_success GDB 'gdb -batch -ex run: as natively, and replays byte for byte' '
	(run_tool gdb -nx -batch -ex run --args /bin/echo hi) >nat.out 2>nat.err &&
	rec_prog gdb -nx -batch -ex run --args /bin/echo hi &&
	check_status rec.status 0 &&
	alike nat.out >nat.lines && alike rec.out >rec.lines &&
	test_cmp_bytes nat.lines rec.lines &&
	test_cmp_bytes nat.err rec.err &&
	grep -qx "hi" rec.out &&
	replay_cmp
'
test_done
