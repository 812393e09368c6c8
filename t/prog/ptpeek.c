/* ptpeek.c: a tracer reads the signals queued for its stopped tracee
 * (PTRACE_PEEKSIGINFO: a SIGUSR1 and a SIGRTMIN carrying a random value,
 * so runs differ) and asks PTRACE_GETREGSET for NT_PRSTATUS with a
 * length that is not whole registers (EINVAL, the length left alone)
 * and with one that is. */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(0);
	}
	int st;
	if (child < 0 || waitpid(child, &st, 0) != child || !WIFSTOPPED(st))
		return 1;
	kill(child, SIGUSR1);
	union sigval v = { .sival_int = (int)(marker % 100000) };
	sigqueue(child, SIGRTMIN, v);

	struct __ptrace_peeksiginfo_args a = { 0, PTRACE_PEEKSIGINFO_SHARED, 8 };	/* kill and sigqueue: the process's */
	siginfo_t q[8];
	memset(q, 0, sizeof q);
	long n = ptrace(PTRACE_PEEKSIGINFO, child, &a, q);
	printf("peeksiginfo %ld:", n);
	for (long i = 0; i < n; i++)
		printf(" %s%s", q[i].si_signo == SIGUSR1 ? "USR1" : q[i].si_signo == SIGRTMIN ?
		       "RTMIN" : "other", q[i].si_pid == getpid() ? " from parent" : "");
	printf("\n");
	for (long i = 0; i < n; i++)
		if (q[i].si_signo == SIGRTMIN)
			printf("value %d\n", q[i].si_value.sival_int);
	a.off = 1;
	a.nr = 4;
	n = ptrace(PTRACE_PEEKSIGINFO, child, &a, q);
	printf("from the second %ld\n", n);
	a.flags = 2;	/* not a flag */
	errno = 0;
	n = ptrace(PTRACE_PEEKSIGINFO, child, &a, q);
	printf("bad flags %ld %s\n", n, errno == EINVAL ? "EINVAL" : "other");

	struct user_regs_struct r;
	struct iovec io = { &r, sizeof r + 1 };
	errno = 0;
	long k = ptrace(PTRACE_GETREGSET, child, NT_PRSTATUS, &io);
	printf("getregset %zu: %ld %s, length %zu\n", sizeof r + 1, k, errno == EINVAL ? "EINVAL" :
	       "other", io.iov_len);
	io.iov_len = sizeof r;
	k = ptrace(PTRACE_GETREGSET, child, NT_PRSTATUS, &io);
	printf("getregset %zu: %ld, length %zu\n", sizeof r, k, io.iov_len);

	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	printf("child %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "other");
	return 0;
}
