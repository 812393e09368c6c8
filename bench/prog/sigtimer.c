/* sigtimer.c: bench workload for signal timing: a 2 ms interval timer
 * (ITIMER_REAL) while computing about 0.5 s with no system call; prints
 * how many times the handler ran and where the loop was each time. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile unsigned long progress, where;
static volatile long hits;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
	where = where * 1000003 ^ progress;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	unsigned long x = 1;
	for (long r = 0; r < rounds; r++) {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		progress = r * 7919 + (x >> 60);
	}
	it = (struct itimerval){ 0 };
	setitimer(ITIMER_REAL, &it, NULL);
	printf("hits %ld where %lu x %lu\n", hits, where, x);
	return 0;
}
