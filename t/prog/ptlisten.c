/* ptlisten.c: PTRACE_LISTEN of a seized child in its group-stop, with
 * the SIGCONT before the listen (as strace does), after it, or after a
 * PTRACE_INTERRUPT of the listener; the mode (argv[1]) picks one.
 * Prints what the tracer sees, no ids. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static void waitshow(const char *what)
{
	int st;
	pid_t r = waitpid(child, &st, __WALL);
	if (r != child)
		printf("%s: wait %d errno %d\n", what, (int)r, errno);
	else if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by %d\n", what, WTERMSIG(st));
	else
		printf("%s: stopped by %d event %d\n", what, WSTOPSIG(st), st >> 16);
	fflush(stdout);
}

static void req(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
	fflush(stdout);
}

static void siginfo(const char *what)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	long r = ptrace(PTRACE_GETSIGINFO, child, 0, &si);
	printf("%s: siginfo %ld: signal %d code 0x%x\n", what, r, si.si_signo, si.si_code);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "before";
	struct user_regs_struct regs;
	int st;
	child = fork();
	if (!child) {
		kill(getpid(), SIGSTOP);
		printf("child goes on\n");
		fflush(stdout);
		_exit(3);
	}
	if (waitpid(child, &st, WUNTRACED) != child || !WIFSTOPPED(st))
		return 1;
	req("seize", ptrace(PTRACE_SEIZE, child, 0, 0));
	if (!strcmp(mode, "before"))
		kill(child, SIGCONT);
	waitshow("seized");
	siginfo("seized");
	if (!strcmp(mode, "before")) {
		req("listen", ptrace(PTRACE_LISTEN, child, 0, 0));
	} else if (!strcmp(mode, "after")) {
		req("listen", ptrace(PTRACE_LISTEN, child, 0, 0));
		req("getregs while listening", ptrace(PTRACE_GETREGS, child, 0, &regs));
		req("cont while listening", ptrace(PTRACE_CONT, child, 0, 0));
		kill(child, SIGCONT);
	} else {
		req("listen", ptrace(PTRACE_LISTEN, child, 0, 0));
		req("interrupt", ptrace(PTRACE_INTERRUPT, child, 0, 0));
		waitshow("interrupted");
		siginfo("interrupted");
		kill(child, SIGCONT);
		req("listen again", ptrace(PTRACE_LISTEN, child, 0, 0));
	}
	waitshow("after the SIGCONT");
	siginfo("after the SIGCONT");
	req("cont", ptrace(PTRACE_CONT, child, 0, 0));
	waitshow("let go");
	siginfo("let go");
	ptrace(PTRACE_CONT, child, 0, 0);
	waitshow("end");
	return 0;
}
