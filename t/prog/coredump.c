/* coredump.c: a child raises its core limit and aborts; the parent says
 * whether the kernel dumped a core (WCOREDUMP), and a random marker so
 * runs differ. Run it in a directory it may write (core_pattern "core"
 * writes there); it removes the core. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	printf("marker %u\n", marker);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl;
		getrlimit(RLIMIT_CORE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_CORE, &rl);
		abort();
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	printf("child %s by signal %d, core %s\n", WIFSIGNALED(st) ? "killed" : "exited",
	       WIFSIGNALED(st) ? WTERMSIG(st) : -1, WCOREDUMP(st) ? "dumped" : "not dumped");
	unlink("core");
	return 0;
}
