/* threads.c: 4 pthreads write a line, read the clock and random bytes, and
 * race on a counter (read, sched_yield, write back: updates get lost); main
 * prints the finishing order and the final counter, which vary natively. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 4
#define ROUNDS 50

static volatile long counter;
static atomic_int finished;
static int order[NTHREADS];

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	unsigned r = 0;
	struct timespec ts;
	char buf[80];

	getrandom(&r, sizeof r, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int n = snprintf(buf, sizeof buf, "thread %d token %08x\n", id, r);
	write(1, buf, n);
	for (int i = 0; i < ROUNDS; i++) {
		long v = counter;
		sched_yield();	/* another thread may update counter here */
		counter = v + 1;
	}
	order[atomic_fetch_add(&finished, 1)] = id;
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];

	for (long i = 0; i < NTHREADS; i++) {
		int e = pthread_create(&t[i], NULL, worker, (void *)i);
		if (e)
			return fprintf(stderr, "threads: pthread_create: %s\n", strerror(e)), 1;
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("order");
	for (int i = 0; i < NTHREADS; i++)
		printf(" %d", order[i]);
	printf("\ncounter %ld of %d\n", counter, NTHREADS * ROUNDS);
	return 0;
}
