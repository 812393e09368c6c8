/* sigstart.c: signals a program starts with. "sigstart
 * ignore|block|default SIG... -- PROG ARGS..." ignores, blocks or sets to
 * their default action the signals (numbers) and executes PROG; "sigstart raise SIG" sends itself SIG, then prints
 * whether it is pending (blocked) and a random token, and exits 0. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3)
		return fprintf(stderr, "usage: sigstart ignore|block|default SIG... -- PROG... | raise SIG\n"), 2;
	if (!strcmp(argv[1], "raise")) {
		int sig = atoi(argv[2]);
		kill(getpid(), sig);
		sigset_t p;
		sigpending(&p);
		unsigned r;
		getrandom(&r, sizeof r, 0);
		printf("after %d pending %d token %08x\n", sig, sigismember(&p, sig), r);
		return 0;
	}
	sigset_t m;
	sigemptyset(&m);
	int i = 2;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[1], "ignore") || !strcmp(argv[1], "default"))
			signal(atoi(argv[i]), argv[1][0] == 'i' ? SIG_IGN : SIG_DFL);
		else
			sigaddset(&m, atoi(argv[i]));
	}
	sigprocmask(SIG_BLOCK, &m, NULL);
	if (i + 1 >= argc)
		return fprintf(stderr, "sigstart: no program\n"), 2;
	execvp(argv[i + 1], argv + i + 1);
	perror(argv[i + 1]);
	return 127;
}
