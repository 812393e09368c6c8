/* nosys-numbers.c: makes syscalls the kernel does not have (-1, -10,
 * past the table, x32's numbers, calls rewind answers with ENOSYS) and
 * reads back settings rewind changes for itself (PR_GET_TSC,
 * PR_GET_NO_NEW_PRIVS, PR_GET_SECCOMP); prints each answer after a
 * token that differs run to run. "int80" makes a 32-bit syscall, "tls"
 * calls set_thread_area. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <x86intrin.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static sigjmp_buf env;

static void on_segv(int sig)
{
	siglongjmp(env, sig);
}

static void call(const char *what, long nr)
{
	errno = 0;
	long r = syscall(nr, 0, 0, 0, 0, 0, 0);
	printf("%s = %ld errno %d\n", what, r, r < 0 ? errno : 0);
}

int main(int argc, char **argv)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	if (argc > 1 && !strcmp(argv[1], "int80")) {
		int r;
		fflush(stdout);
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(20) : "memory");	/* getpid */
		printf("int80 getpid %s\n", r > 0 ? "ok" : "failed");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "tls")) {
		unsigned desc[4] = { -1u, 0, 0xfffff, 0x51 };	/* struct user_desc */
		fflush(stdout);
		long r = syscall(SYS_set_thread_area, desc);
		printf("set_thread_area = %ld entry %u errno %d\n", r, desc[0], r < 0 ? errno : 0);
		return 0;
	}
	call("syscall(-1)", -1);
	call("syscall(-10)", -10);
	call("syscall(1008)", 1008);
	call("syscall(400)", 400);
	call("syscall(0x40000027)", 0x40000027);	/* x32 getpid */
	call("io_setup", SYS_io_setup);
	call("iopl", SYS_iopl);
	int mode = -1;
	long r = prctl(PR_GET_TSC, &mode);
	printf("PR_GET_TSC = %ld mode %d\n", r, mode);
	printf("PR_GET_NO_NEW_PRIVS = %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	printf("PR_GET_SECCOMP = %d\n", prctl(PR_GET_SECCOMP, 0, 0, 0, 0));
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	printf("PR_GET_NO_NEW_PRIVS = %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	r = prctl(PR_SET_TSC, PR_TSC_SIGSEGV);
	mode = -1;
	prctl(PR_GET_TSC, &mode);
	printf("PR_SET_TSC = %ld, PR_GET_TSC mode %d\n", r, mode);
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(env, 1) == 0)
		printf("rdtsc ran: %s\n", __rdtsc() ? "nonzero" : "zero");
	else
		printf("rdtsc raised SIGSEGV\n");
	prctl(PR_SET_TSC, PR_TSC_ENABLE);
	mode = -1;
	prctl(PR_GET_TSC, &mode);
	printf("PR_GET_TSC mode %d\n", mode);
	return 0;
}
