#!/bin/bash
# t6010-kernel-nosys.sh: syscall numbers the kernel does not have (-1, -10,
# past the table, x32's) get ENOSYS under rec as natively, recorded as
# ordinary events and replayed; prctl reads back the program's own rdtsc,
# no_new_privs and seccomp settings, not rewind's; a 32-bit syscall
# (int $0x80) is refused in one line; set_thread_area answers as natively.
. "$(dirname "$0")/test-lib.sh"
require_tprog nosys-numbers

# Where rdtsc does not trap (or REWIND_NO_TSC_TRAP acts as if it did not),
# a program's own PR_TSC_SIGSEGV makes no fault, as natively on such a
# host: its rdtsc runs and is recorded like any other.
if rec --probe | grep -q "^rdtsc trap: present"; then
	tsc_line="^rdtsc raised SIGSEGV"
else
	tsc_line="^rdtsc ran: nonzero"
fi

test_expect_success 'unknown numbers and prctl settings record and replay' '
	rec_replay_cmp "$T/nosys-numbers"
'
test_expect_success 'native output differs (token)' '
	differs_natively "$T/nosys-numbers"
'
test_expect_success 'the answers are the native ones (aio aside: ENOSYS under rec)' '
	"$T/nosys-numbers" >native.out &&
	grep -v -e "^token" -e "^io_setup" -e "^rdtsc " native.out >want &&
	grep -v -e "^token" -e "^io_setup" -e "^rdtsc " rec.out >got &&
	test_cmp_bytes want got &&
	grep -q "^syscall(-10) = -1 errno 38" got &&
	grep -q "^PR_GET_TSC = 0 mode 1" got &&
	grep -q "$tsc_line" rec.out
'
test_expect_success 'tdump shows the unknown calls as events' '
	tdump "$trace" >dump &&
	grep -q "syscall_-1(.*) = -1 ENOSYS" dump &&
	grep -q "syscall_-10(.*) = -1 ENOSYS" dump &&
	grep -q "syscall_1008(.*) = -1 ENOSYS" dump
'
test_expect_success 'int $0x80 is refused in one line' '
	run_tool rec -o tr-int80 "$T/nosys-numbers" int80 >out 2>err
	st=$?
	not_signalled $st && test $st = 125 &&
	grep -v "^rec: recording to" err >msg &&
	one_line_error msg "^rec: .*32-bit syscall \(int \\\$0x80" &&
	! grep -q "^int80" out
'
test_expect_success 'set_thread_area answers as natively' '
	"$T/nosys-numbers" tls >native.out &&
	rec_replay_cmp "$T/nosys-numbers" tls &&
	grep -v "^token" native.out >want &&
	grep -v "^token" rec.out >got &&
	test_cmp_bytes want got
'
test_done
