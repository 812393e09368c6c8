/* tree.c: a small process tree: fork+exec /bin/echo, vfork+exec, a child
 * that writes and exits with a random code, one killed with SIGTERM, one
 * killed by SIGPIPE; prints their wait statuses. Exits 2 (two killed). */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t nchld;

static void on_chld(int sig)
{
	(void)sig;
	nchld++;
}

/* One write(2) a line, so that a child's line is its own event and no
 * stdio buffer is copied by fork. */
static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	write(1, buf, n);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);

	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	char num[16], num2[16];
	snprintf(num, sizeof num, "%u", r % 100000);
	snprintf(num2, sizeof num2, "%u", (r >> 16) % 1000);
	int st;
	pid_t pid;

	/* fork, then exec in the child. */
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		execl("/bin/echo", "echo", "echo child", num, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	say("echo child %d: status 0x%04x\n", (int)pid, st);

	/* vfork, then exec; wait4 with rusage. */
	if ((pid = vfork()) < 0)
		die("vfork");
	if (pid == 0) {
		execl("/bin/echo", "echo", "vfork child", num2, (char *)NULL);
		_exit(127);
	}
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) != pid)
		die("wait4");
	say("vfork child %d: status 0x%04x\n", (int)pid, st);

	/* A child that writes itself and exits with a random code. */
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		unsigned c = 0;
		getrandom(&c, sizeof c, 0);
		say("child %d says %08x\n", (int)getpid(), c);
		_exit(c % 50);
	}
	if (wait4(pid, &st, 0, NULL) != pid)
		die("wait4");
	say("writer child %d: status 0x%04x\n", (int)pid, st);

	/* A child that waits to be killed: it says it is ready through a pipe,
	 * the parent kill()s it and reads its end with waitid. */
	int sync[2];
	if (pipe(sync))
		die("pipe");
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		close(sync[0]);
		write(sync[1], "r", 1);
		for (;;)
			pause();
	}
	close(sync[1]);
	char c;
	if (read(sync[0], &c, 1) != 1)
		die("read");
	close(sync[0]);
	kill(pid, SIGTERM);
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, pid, &si, WEXITED))
		die("waitid");
	say("killed child %d: waitid code %s signal %d\n", (int)pid,
	    si.si_code == CLD_KILLED ? "CLD_KILLED" : "other", si.si_status);

	/* A child writing into a pipe whose reading end is closed. */
	int p[2];
	if (pipe(p))
		die("pipe");
	close(p[0]);
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		write(p[1], "x", 1);
		_exit(0);	/* not reached: SIGPIPE kills it */
	}
	close(p[1]);
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	say("pipe writer child %d: status 0x%04x%s\n", (int)pid, st,
	    WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE ? " (SIGPIPE)" : "");

	say("sigchld %d\n", (int)nchld);
	return 2;
}
