/* execwait.c: a child that waits on a pipe, then executes /bin/echo with
 * a random token; the parent catches SIGCHLD, calls mark() while the
 * child waits (a place for a checkpoint of both), then lets it go and
 * waits for it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t nchld;

static void on_chld(int sig)
{
	(void)sig;
	nchld++;
}

__attribute__((noinline)) void mark(void)
{
	__asm__ volatile("" ::: "memory");
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
	char tok[16];
	snprintf(tok, sizeof tok, "%08x", r);
	int p[2];
	if (pipe(p) < 0)
		return 1;
	pid_t c = fork();
	if (c < 0)
		return 1;
	if (c == 0) {
		char b;
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(126);
		execl("/bin/echo", "echo", "child", tok, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	mark();
	if (write(p[1], "x", 1) != 1)
		return 1;
	int st;
	if (waitpid(c, &st, 0) != c)
		return 1;
	printf("parent %s: child status 0x%04x\n", tok, st);
	return 0;
}
