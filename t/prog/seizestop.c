/* seizestop.c: a seized tracee's stops around a group-stop its tracer
 * lets it run out of: PTRACE_INTERRUPT reports the group-stop's signal
 * (SIGSTOP) while its group is stopped still, not SIGTRAP. With
 * "attach", the child stops itself before it is seized, and
 * PTRACE_CONT from that group-stop lets it run (rr's
 * ptrace_remote_unmap). Prints a random token and each wait status. */
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
	printf("%s: %s status %#x\n", what, w == c ? "child" : "none", st);
}

/* The child stops itself; seized in that group-stop and let go, it
 * runs, writes to the pipe and exits. */
static int attach(int p[2])
{
	pid_t c = fork();
	if (c == 0) {
		raise(SIGSTOP);
		write(p[1], "r", 1);
		_exit(7);
	}
	int st = 0;
	waitpid(c, &st, WUNTRACED);
	printf("stopped itself: status %#x\n", st);
	if (ptrace(PTRACE_SEIZE, c, 0, 0))
		return 3;
	show("seized in its group-stop", c);
	ptrace(PTRACE_CONT, c, 0, 0);
	char ch = 0;
	printf("let go: it %s\n", read(p[0], &ch, 1) == 1 && ch == 'r' ? "ran" : "did not run");
	show("exited", c);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	printf("token %08x\n", r);
	fflush(stdout);
	int p[2];
	if (pipe(p))
		return 2;
	if (argc > 1 && argv[1][0] == 'a')
		return attach(p);
	pid_t c = fork();
	if (c == 0) {
		char ch;
		read(p[0], &ch, 1);
		for (;;)
			pause();
	}
	if (ptrace(PTRACE_SEIZE, c, 0, 0))
		return 3;
	write(p[1], "x", 1);
	kill(c, SIGSTOP);
	show("SIGSTOP sent", c);
	ptrace(PTRACE_CONT, c, 0, SIGSTOP);
	show("SIGSTOP let in", c);
	ptrace(PTRACE_CONT, c, 0, 0);
	ptrace(PTRACE_INTERRUPT, c, 0, 0);
	show("interrupted in its stopped group", c);
	kill(c, SIGKILL);
	show("killed", c);
	return 0;
}
