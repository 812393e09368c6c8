/* spin-timer: THREADS threads spin through the same few register states
 * (their counters live in memory) under a 1 ms timer_create SIGALRM; the
 * handler folds the counter of the thread it interrupted into a sum.
 * Prints that sum, how many signals came and a random token. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#define MAXT 16
static volatile long turn[MAXT];	/* each thread's counter, in memory */
static __thread volatile long *mine;
static unsigned long sum, hits;

static void on_alarm(int sig)
{
	(void)sig;
	long t = mine ? *mine : -1;
	__atomic_fetch_add(&sum, (unsigned long)t * 2654435761u + 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

/* The same registers on every call: a thread comes back to a state it
 * had when a signal interrupted it before. */
static __attribute__((noinline)) void work(void)
{
	for (volatile int k = 0; k < 4; k++)
		;
}

static long turns;

static void *run(void *a)
{
	volatile long *c = a;
	mine = c;
	while (*c < turns) {
		work();
		*c = *c + 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	turns = argc > 2 ? atol(argv[2]) : 2000000;
	if (n < 1 || n > MAXT)
		return 2;
	signal(SIGALRM, on_alarm);
	timer_t tm;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { { 0, 1000000 }, { 0, 1000000 } };
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) < 0 || timer_settime(tm, 0, &its, NULL) < 0)
		return 3;
	pthread_t t[MAXT];
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, run, (void *)&turn[i]);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	timer_delete(tm);
	unsigned token = 0;
	if (getrandom(&token, sizeof token, 0) != sizeof token)
		return 4;
	printf("sum %016lx, signals %lu, token %08x\n", sum, hits, token);
	return 0;
}
