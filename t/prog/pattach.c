/* pattach: a process that ptraces its own child, as a debugger or a
 * leak checker would. The child holds a random number and blocks in
 * read; the parent attaches, waits for the stop, reads the number with
 * PTRACE_PEEKDATA and the registers with PTRACE_GETREGS, tries to attach
 * to itself (EPERM), detaches and lets the child finish. With "traceme"
 * the child asks for PTRACE_TRACEME and stops itself, and the parent
 * sees the stops and continues it; with "poke" the parent changes its
 * stopped child with PTRACE_POKEDATA and PTRACE_SETREGS; with "step" it
 * single-steps it (which rec refuses). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile uint64_t secret;

static void on_usr1(int sig)
{
	printf("child got signal %d\n", sig);
	fflush(stdout);
}

/* The child asks to be traced and stops itself twice; the parent sees
 * each stop, suppresses SIGSTOP and passes SIGUSR1 on. */
static int traceme(void)
{
	printf("secret %016llx\n", (unsigned long long)secret);
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		signal(SIGUSR1, on_usr1);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			_exit(100);
		raise(SIGSTOP);
		raise(SIGUSR1);
		_exit(secret % 50);
	}
	int st;
	for (int i = 0; i < 3; i++) {
		if (waitpid(c, &st, 0) != c)
			return 1;
		if (!WIFSTOPPED(st))
			break;
		int sig = WSTOPSIG(st);
		printf("stop %d: signal %d\n", i, sig);
		fflush(stdout);
		ptrace(PTRACE_CONT, c, 0, sig == SIGSTOP ? 0 : sig);
	}
	printf("child exited %d (want %d)\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	       (int)(secret % 50));
	return 0;
}

/* The child stops itself; the parent writes a new number into it with
 * PTRACE_POKEDATA, gives its registers back with PTRACE_SETREGS (rax
 * set to what raise returns anyway) and continues it: the child prints
 * the new number. With step, PTRACE_SINGLESTEP instead. */
static int poke(int step)
{
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			_exit(100);
		raise(SIGSTOP);
		printf("child sees %016llx\n", (unsigned long long)secret);
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	if (step) {
		ptrace(PTRACE_SINGLESTEP, c, 0, 0);
		return 1;
	}
	uint64_t v = ~secret;
	struct user_regs_struct r;
	long rc1 = ptrace(PTRACE_POKEDATA, c, (void *)&secret, (void *)v);
	long rc2 = ptrace(PTRACE_GETREGS, c, 0, &r);
	r.rax = 0;
	long rc3 = ptrace(PTRACE_SETREGS, c, 0, &r);
	printf("parent poked %016llx: %ld %ld %ld\n", (unsigned long long)v, rc1, rc2, rc3);
	fflush(stdout);
	ptrace(PTRACE_CONT, c, 0, 0);
	waitpid(c, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
	return 0;
}

int main(int argc, char **argv)
{
	int p[2], q[2];
	if (getrandom((void *)&secret, sizeof secret, 0) != sizeof secret || pipe(p) < 0 ||
	    pipe(q) < 0)
		return 2;
	if (argc > 1 && !strcmp(argv[1], "traceme"))
		return traceme();
	if (argc > 1 && !strcmp(argv[1], "poke"))
		return poke(0);
	if (argc > 1 && !strcmp(argv[1], "step"))
		return poke(1);
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		char b;
		secret ^= 0x5555;	/* the child's own value */
		if (write(q[1], "r", 1) != 1)
			return 1;
		ssize_t n = read(p[0], &b, 1);	/* blocks until detached */
		printf("child read %zd %016llx\n", n, (unsigned long long)secret);
		return 0;
	}
	printf("parent %016llx\n", (unsigned long long)secret);
	int st;
	char b;
	if (read(q[0], &b, 1) != 1)	/* the child is about to block */
		return 1;
	if (ptrace(PTRACE_ATTACH, c, 0, 0) < 0) {
		perror("attach");
		return 1;
	}
	pid_t w = waitpid(c, &st, __WALL);
	printf("wait %s, stopped %d by signal %d\n", w == c ? "the child" : "other", WIFSTOPPED(st),
	       WSTOPSIG(st));
	errno = 0;
	long v = ptrace(PTRACE_PEEKDATA, c, (void *)&secret, 0);
	printf("peek %016llx errno %d\n", (unsigned long long)v, errno);
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, c, 0, &r) < 0) {
		perror("getregs");
		return 1;
	}
	printf("regs: rsp %s\n", r.rsp ? "set" : "zero");
	printf("attach self: %d\n", (int)ptrace(PTRACE_ATTACH, getpid(), 0, 0));
	if (ptrace(PTRACE_DETACH, c, 0, 0) < 0) {
		perror("detach");
		return 1;
	}
	if (write(p[1], "x", 1) != 1)
		return 1;
	waitpid(c, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
	return 0;
}
