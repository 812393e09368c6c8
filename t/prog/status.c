/* status.c: prints a random token to stdout and stderr, then ends the way
 * its arguments say: "status exit N" or "status signal N". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: status exit|signal N\n"), 2;
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fprintf(stderr, "to stderr %08x\n", ~r);
	fflush(stdout);
	int n = atoi(argv[2]);
	if (!strcmp(argv[1], "signal")) {
		signal(n, SIG_DFL);
		kill(getpid(), n);
		return 99;
	}
	exit(n);
}
