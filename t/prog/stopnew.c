/* stopnew.c: a parent stops its child with SIGSTOP right after the fork,
 * before the child ran (rec holds the signal for the child's first call
 * and raises it there), sees it stopped, continues it and reaps it.
 * Prints a token and each status. */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	int go[2];
	pipe(go);
	pid_t c = fork();
	if (c == 0) {
		char b;
		read(go[0], &b, 1);
		_exit(r % 100);
	}
	kill(c, SIGSTOP);
	int st;
	waitpid(c, &st, WUNTRACED);
	printf("stopped %d by %d\n", WIFSTOPPED(st), WIFSTOPPED(st) ? WSTOPSIG(st) : 0);
	fflush(stdout);
	kill(c, SIGCONT);
	waitpid(c, &st, WCONTINUED);
	printf("continued %d\n", WIFCONTINUED(st));
	fflush(stdout);
	write(go[1], "g", 1);
	waitpid(c, &st, 0);
	printf("exited %d with %d\n", WIFEXITED(st), WEXITSTATUS(st));
	return 0;
}
