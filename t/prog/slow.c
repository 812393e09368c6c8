/* slow.c: prints its pid, then numbered lines with a random token about
 * every 0.3 s, forever; for the test that kills rec mid-run. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char line[64];
	int n = snprintf(line, sizeof line, "slow: pid %d\n", (int)getpid());
	write(1, line, n);
	for (unsigned i = 0;; i++) {
		unsigned r;
		getrandom(&r, sizeof r, 0);
		n = snprintf(line, sizeof line, "line %u %08x\n", i, r);
		write(1, line, n);
		struct timespec ts = { 0, 300000000 };
		nanosleep(&ts, NULL);
	}
}
