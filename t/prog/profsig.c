/* profsig.c: a 2 ms timer while computing a fixed amount of work
 * (argv[1] rounds) with no syscall: SIGPROF (process CPU time), or with
 * argv[2] "real" SIGALRM (wall time, make bench); prints how many times
 * the handler ran and a hash of where the loop was at each run, both of
 * which differ from run to run. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long progress, where;
static volatile long hits;

static void on_prof(int sig)
{
	(void)sig;
	hits++;
	where = where * 1000003 ^ progress;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 3000;
	int real = argc > 2 && !strcmp(argv[2], "real");
	int sig = real ? SIGALRM : SIGPROF, which = real ? ITIMER_REAL : ITIMER_PROF;
	struct sigaction sa = { .sa_handler = on_prof, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	setitimer(which, &it, NULL);
	unsigned long x = 1;
	for (long r = 0; r < rounds; r++) {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		progress = r * 7919 + (x >> 60);
	}
	it = (struct itimerval){ 0 };
	setitimer(which, &it, NULL);
	printf("hits %ld where %lu x %lu\n", hits, where, x);
	return 0;
}
