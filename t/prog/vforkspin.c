/* vforkspin.c: a vfork child that computes for about six seconds, the
 * parent asleep in vfork all that while, then prints a number that
 * differs run to run; a hang watch must leave its replay alone. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	pid_t c = vfork();
	if (!c) {
		struct timespec t0, t;
		volatile unsigned long n = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			for (int i = 0; i < 1000000; i++)
				n++;
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (t.tv_sec - t0.tv_sec < 6);
		_exit(r % 50);
	}
	int st;
	waitpid(c, &st, 0);
	printf("child ended %d, token %u\n", WEXITSTATUS(st), r);
	return 0;
}
