/* groupstop.c: a child stops itself (SIGSTOP); its parent sees it
 * stopped (WUNTRACED), continues it (SIGCONT), sees that (WCONTINUED)
 * and then its exit. Prints each status after a token. */
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
		raise(SIGSTOP);
		read(go[0], &b, 1);	/* exits only once its parent saw it continued */
		_exit(7);
	}
	int st;
	waitpid(c, &st, WUNTRACED);
	printf("stopped %d by %d\n", WIFSTOPPED(st), WIFSTOPPED(st) ? WSTOPSIG(st) : 0);
	fflush(stdout);
	kill(c, SIGCONT);
	waitpid(c, &st, WCONTINUED);
	printf("continued %d\n", WIFCONTINUED(st));
	fflush(stdout);
	write(go[1], "g", 1);
	if (!WIFEXITED(st))
		waitpid(c, &st, 0);
	printf("exited %d with %d\n", WIFEXITED(st), WEXITSTATUS(st));
	return 0;
}
