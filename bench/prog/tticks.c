/* tticks.c: bench workload for seeking in a threaded trace: four threads
 * each do about 5 ms of integer arithmetic (xorshift) between calls to
 * sched_yield, which hands over to the next thread, 100 times; main joins
 * them and prints their sums. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4

static long ticks = 100, per = 2200000L;	/* about 5 ms here */
static uint64_t sums[NTHREADS];

static void *worker(void *arg)
{
	long id = (long)arg;
	uint64_t x = 88172645463325252ull + id, acc = 0;
	for (long t = 0; t < ticks; t++) {
		for (long i = 0; i < per; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			acc += x >> 60;
		}
		sched_yield();
	}
	sums[id] = acc;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		ticks = atol(argv[1]);
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return fprintf(stderr, "tticks: pthread_create failed\n"), 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NTHREADS; i++)
		printf("%d %llu\n", i, (unsigned long long)sums[i]);
	return 0;
}
