/* ptgrand.c: a tracer kills the grandchild its tracee forked (traced
 * through PTRACE_O_TRACEFORK), then lets the tracee go: the tracee's
 * SIGCHLD for it stops it for the tracer at once, before the tracee
 * runs on (rr's ptrace_kill_grandtracee). Prints a random token and
 * each wait status. */
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *what, pid_t c)
{
	int st = 0;
	pid_t w = waitpid(c, &st, 0);
	printf("%s: %s status %#x\n", what, w == c ? "it" : "none", st);
}

int main(void)
{
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	printf("token %08x\n", r);
	fflush(stdout);
	int p[2];
	if (pipe(p))
		return 2;
	pid_t c = fork();
	if (c == 0) {
		char ch;
		if (read(p[0], &ch, 1) != 1)
			_exit(3);
		_exit(fork() ? 77 : 66);
	}
	if (ptrace(PTRACE_SEIZE, c, 0, PTRACE_O_TRACEFORK))
		return 3;
	write(p[1], "p", 1);
	show("the child forked", c);
	unsigned long g = 0;
	ptrace(PTRACE_GETEVENTMSG, c, 0, &g);
	show("the grandchild's first stop", (pid_t)g);
	kill((pid_t)g, SIGKILL);
	show("the grandchild killed", (pid_t)g);
	ptrace(PTRACE_CONT, c, 0, 0);
	show("the child let go", c);
	ptrace(PTRACE_CONT, c, 0, 0);
	show("the child let go again", c);
	return 0;
}
