/* sud.c: syscall user dispatch (PR_SET_SYSCALL_USER_DISPATCH): with its
 * selector set to block, getppid raises SIGSYS, which the handler
 * catches (it allows syscalls again and notes the number). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#endif

static volatile char sel = SYSCALL_DISPATCH_FILTER_ALLOW;
static volatile int caught, code;

static void on_sys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	sel = SYSCALL_DISPATCH_FILTER_ALLOW;
	caught = si->si_syscall;
	code = si->si_code;
}

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	struct sigaction sa = { .sa_sigaction = on_sys, .sa_flags = SA_SIGINFO };
	sigaction(SIGSYS, &sa, NULL);
	int rc = prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &sel);
	printf("prctl = %d\n", rc);
	fflush(stdout);
	sel = SYSCALL_DISPATCH_FILTER_BLOCK;
	long ret = syscall(SYS_getppid);
	printf("getppid gave %ld; SIGSYS for syscall %d, code %d\n", ret, caught, code);
	return 0;
}
