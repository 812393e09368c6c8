/* pthang.c: a tracer that waits for what never comes (twice: a second
 * wait4 for a tracee stopped already, reported once; natively it waits
 * for ever), or for a tracee that sleeps a second, then ends (sleepy). */
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sleepy = argc > 1 && !strcmp(argv[1], "sleepy"), st;
	pid_t c = fork();
	if (!c) {
		sleep(sleepy ? 1 : 1000);
		printf("child wakes\n");
		return 3;
	}
	if (!sleepy) {
		printf("attach %ld\n", ptrace(PTRACE_ATTACH, c, 0, 0));
		int r = waitpid(c, &st, 0) == c;
		printf("first wait %d: 0x%x\n", r, st);
		fflush(stdout);
		waitpid(c, &st, 0);
		printf("second wait ended\n");
		return 1;
	}
	printf("seize %ld\n", ptrace(PTRACE_SEIZE, c, 0, 0));
	fflush(stdout);
	int r = waitpid(c, &st, 0) == c;
	printf("wait %d: exited %d\n", r, WEXITSTATUS(st));
	return 0;
}
