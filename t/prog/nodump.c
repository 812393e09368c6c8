/* nodump.c: makes itself non-dumpable (prctl PR_SET_DUMPABLE 0), which
 * closes its /proc files to an ordinary user's rec, then writes to
 * stdout. Prints the dumpable flag before and after, and a random
 * token. */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/random.h>

int main(void)
{
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x, dumpable %d\n", tok, prctl(PR_GET_DUMPABLE));
	fflush(stdout);
	int rc = prctl(PR_SET_DUMPABLE, 0);
	printf("PR_SET_DUMPABLE 0 = %d, dumpable %d\n", rc, prctl(PR_GET_DUMPABLE));
	return 0;
}
