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
	pid_t c = fork();
	if (c == 0) {
		raise(SIGSTOP);
		_exit(7);	/* prints nothing: its parent's lines keep their order */
	}
	int st;
	waitpid(c, &st, WUNTRACED);
	printf("stopped %d by %d\n", WIFSTOPPED(st), WIFSTOPPED(st) ? WSTOPSIG(st) : 0);
	fflush(stdout);
	kill(c, SIGCONT);
	waitpid(c, &st, WCONTINUED);
	printf("continued %d\n", WIFCONTINUED(st));
	fflush(stdout);
	if (!WIFEXITED(st))
		waitpid(c, &st, 0);
	printf("exited %d with %d\n", WIFEXITED(st), WEXITSTATUS(st));
	return 0;
}
