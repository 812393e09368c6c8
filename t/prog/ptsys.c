/* ptsys.c: a parent traces its child the way strace-like tests do: the
 * child asks to be traced (PTRACE_TRACEME) and execs itself, which stops
 * it with SIGTRAP; the parent reads that signal's siginfo, user-area
 * words (registers, a debug register, offsets the kernel refuses), sets
 * PTRACE_O_TRACESYSGOOD and walks the child's calls with PTRACE_SYSCALL,
 * counting its writes. A second child stopped at a call's entry is
 * killed there. A third goes through its execve with PTRACE_SYSCALL:
 * the entry, the exit, then the SIGTRAP. Prints tokens (the children's)
 * and what it saw. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int got;
static volatile long poked;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got = si->si_value.sival_int;
}

static long peekuser(pid_t c, long off)
{
	errno = 0;
	long v = ptrace(PTRACE_PEEKUSER, c, off, 0);
	return errno ? -errno : v;
}

/* A number that differs run to run. */
static int tok_of(pid_t c)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	return 1 + (r ^ c) % 99999;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		unsigned r;
		getrandom(&r, sizeof r, 0);
		printf("child token %08x\n", r);
		fflush(stdout);
		write(1, "child writes again\n", 19);
		return r % 50;
	}
	errno = 0;
	long r0 = ptrace(PTRACE_ATTACH, 0, 0, 0);
	int e0 = errno;
	errno = 0;
	long r1 = ptrace(PTRACE_ATTACH, 1 << 30, 0, 0);
	printf("attach to 0: %ld errno %d, to no process: %ld errno %d\n", r0, e0, r1, errno);
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		errno = 0;
		long r = ptrace(PTRACE_TRACEME, 0, 0, 0);
		printf("traced twice: %ld errno %d\n", r, errno);
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "child", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(c, &st, 0);
	printf("after its exec: stopped %d by %d\n", WIFSTOPPED(st), WSTOPSIG(st));
	siginfo_t si = { 0 };
	ptrace(PTRACE_GETSIGINFO, c, 0, &si);
	printf("siginfo: signal %d code %d\n", si.si_signo, si.si_code);
	printf("dr7 %ld, unaligned %ld, u_tsize %ld, past the end %ld\n",
	       peekuser(c, offsetof(struct user, u_debugreg[7])), peekuser(c, 3),
	       peekuser(c, offsetof(struct user, u_tsize)), peekuser(c, 928));
	ptrace(PTRACE_SETOPTIONS, c, 0, PTRACE_O_TRACESYSGOOD);
	int stops = 0, writes = 0, other = 0;
	for (;;) {
		ptrace(PTRACE_SYSCALL, c, 0, 0);
		waitpid(c, &st, 0);
		if (!WIFSTOPPED(st))
			break;
		if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			other++;
			continue;
		}
		stops++;
		writes += peekuser(c, offsetof(struct user, regs.orig_rax)) == SYS_write;
	}
	printf("syscall stops %d, at writes %d, other stops %d, exit %d\n", stops > 10, writes, other,
	       WEXITSTATUS(st));
	c = fork();
	if (c == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	waitpid(c, &st, 0);
	ptrace(PTRACE_SYSCALL, c, 0, 0);
	waitpid(c, &st, 0);
	printf("at a call's entry: %x, rax %ld\n", st >> 8, peekuser(c, offsetof(struct user, regs.rax)));
	ptrace(PTRACE_KILL, c, 0, 0);
	waitpid(c, &st, 0);
	printf("killed there by %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	fflush(stdout);
	c = fork();
	if (c == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		execl("/proc/self/exe", argv[0], "child", (char *)NULL);
		_exit(127);
	}
	waitpid(c, &st, 0);
	printf("through its execve:");
	for (int i = 0; i < 3; i++) {
		ptrace(PTRACE_SYSCALL, c, 0, 0);
		waitpid(c, &st, 0);
		printf(" %d/%ld", WSTOPSIG(st), peekuser(c, offsetof(struct user, regs.orig_rax)));
	}
	printf("\n");
	fflush(stdout);
	ptrace(PTRACE_CONT, c, 0, 0);
	waitpid(c, &st, 0);
	printf("then exit %d\n", WIFEXITED(st));
	fflush(stdout);
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	sigaction(SIGUSR1, &sa, NULL);
	c = fork();
	if (c == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGUSR1);
		printf("the child's handler got %d, poked %ld\n", got, poked);
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, &st, 0);
	int bad = 0;
	for (long a = -4; a < 4; a++) {
		errno = 0;
		bad += ptrace(PTRACE_PEEKDATA, c, a, 0) != -1 || errno != EIO;
		errno = 0;
		bad += ptrace(PTRACE_POKEDATA, c, a, 0) != -1 || errno != EIO;
		errno = 0;
		bad += ptrace(PTRACE_GETREGS, c, 0, a) != -1 || errno != EFAULT;
		errno = 0;
		bad += ptrace(PTRACE_SETREGS, c, 0, a) != -1 || errno != EFAULT;
		errno = 0;
		bad += ptrace(PTRACE_SETSIGINFO, c, 0, a) != -1 || errno != EFAULT;
	}
	ptrace(PTRACE_GETSIGINFO, c, 0, &si);
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = tok_of(c);
	printf("bad addresses answered otherwise %d, SETSIGINFO %ld, POKEDATA %ld\n", bad,
	       ptrace(PTRACE_SETSIGINFO, c, 0, &si), ptrace(PTRACE_POKEDATA, c, &poked, 1 + tok_of(c)));
	fflush(stdout);
	ptrace(PTRACE_CONT, c, 0, SIGUSR1);
	waitpid(c, &st, 0);
	return 0;
}
