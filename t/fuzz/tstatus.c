/* tstatus.c: runs a command and tells how it ended, which a shell's $?
 * cannot (it gives 137 both for exit(137) and for death by SIGKILL).
 *
 *   tstatus SECONDS CMD [ARG...]
 *
 * Prints "exit N", "signal N" or "timeout" (the command, still running
 * after SECONDS, is killed) on stdout; exits 0, or 2 if CMD could not run.
 * The command's stdout is discarded; its stderr is tstatus's. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: tstatus SECONDS CMD [ARG...]\n");
		return 2;
	}
	double limit = atof(argv[1]);
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		setpgid(0, 0);	/* so that the whole group goes at a timeout */
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "tstatus: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	struct timespec t0, now, nap = { 0, 5000000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int st;
	for (;;) {
		pid_t k = waitpid(pid, &st, WNOHANG);
		if (k == pid)
			break;
		if (k < 0 && errno != EINTR)
			return 2;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9 > limit) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			printf("timeout\n");
			return 0;
		}
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL);	/* what it left running */
	if (WIFSIGNALED(st))
		printf("signal %d\n", WTERMSIG(st));
	else
		printf("exit %d\n", WEXITSTATUS(st));
	return 0;
}
