/* timer.c: waits for SIGALRM from setitimer with pause(), from alarm() with
 * sigsuspend(), and from an interval timer; prints timings, which differ
 * on every run. */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t hits;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	unsigned r;
	getrandom(&r, sizeof r, 0);

	double t0 = now();
	/* With an interval: should the first signal come before pause()
	 * (a loaded machine), the next one ends it. */
	struct itimerval it = { .it_value = { 0, 20000 + r % 30000 }, .it_interval = { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pause();
	struct itimerval off = { 0 };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("pause woke hits %d after %.6f s (asked %ld us)\n", (int)hits, now() - t0,
	       (long)it.it_value.tv_usec);

	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	t0 = now();
	alarm(1);
	sigsuspend(&old);
	printf("sigsuspend woke hits %d after %.6f s\n", (int)hits, now() - t0);

	it.it_value.tv_usec = 10000;
	it.it_interval.tv_usec = 10000 + r % 7;
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < 3; i++)
		sigsuspend(&old);
	struct itimerval left;
	getitimer(ITIMER_REAL, &left);
	it = (struct itimerval){ 0 };
	setitimer(ITIMER_REAL, &it, NULL);
	printf("interval hits %d left %ld us\n", (int)hits, (long)left.it_value.tv_usec);
	return 0;
}
