/* nodump.c: makes itself non-dumpable (prctl PR_SET_DUMPABLE 0), which
 * would close its /proc files to an ordinary user's rec, then writes to
 * stdout. A child inherits the flag; executing a program clears it;
 * PR_SET_DUMPABLE 1 sets it again. Prints the flag at each step, and a
 * random token. */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("after exec: dumpable %d\n", prctl(PR_GET_DUMPABLE));
		return 0;
	}
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x, dumpable %d\n", tok, prctl(PR_GET_DUMPABLE));
	fflush(stdout);
	int rc = prctl(PR_SET_DUMPABLE, 0);
	printf("PR_SET_DUMPABLE 0 = %d, dumpable %d\n", rc, prctl(PR_GET_DUMPABLE));
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		printf("child: dumpable %d\n", prctl(PR_GET_DUMPABLE));
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "again", NULL);
		_exit(1);
	}
	waitpid(p, NULL, 0);
	rc = prctl(PR_SET_DUMPABLE, 1);
	printf("PR_SET_DUMPABLE 1 = %d, dumpable %d\n", rc, prctl(PR_GET_DUMPABLE));
	return 0;
}
