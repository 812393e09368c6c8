/* sigstorm.c: a child execs itself again and again (each exec maps code
 * that a counted recording patches) while its parent sends it SIGWINCH,
 * ignored by default, as fast as it can: a signal comes in the middle of
 * whatever rec does to the child. Prints a random token at the end.
 * Usage: sigstorm [N] (execs left, 40). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int left = argc > 1 ? atoi(argv[1]) : 40;
	if (argc > 2) {	/* the child: exec again until none left */
		if (left > 0) {
			char n[16];
			snprintf(n, sizeof n, "%d", left - 1);
			execl("/proc/self/exe", argv[0], n, "child", (char *)NULL);
			return 1;
		}
		unsigned tok;
		if (getrandom(&tok, sizeof tok, 0) != sizeof tok)
			return 1;
		printf("token %08x\n", tok);
		return 0;
	}
	pid_t c = fork();
	if (c == 0) {
		char n[16];
		snprintf(n, sizeof n, "%d", left);
		execl("/proc/self/exe", argv[0], n, "child", (char *)NULL);
		_exit(1);
	}
	int st;
	while (waitpid(c, &st, WNOHANG) == 0)
		kill(c, SIGWINCH);
	printf("child %s\n", WIFEXITED(st) && !WEXITSTATUS(st) ? "ok" : "failed");
	return 0;
}
