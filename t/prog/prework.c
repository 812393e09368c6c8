/* prework.c: a thread computes (a breakpoint-able loop that writes a
 * watched cell) and then spins with no syscall, so that rec preempts it:
 * the computation lies inside the stretch that ends in the preemption.
 * Prints the random seed and the cell's last value. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define ROUNDS 40

static unsigned seed;
static volatile unsigned cell;	/* written by each round: watch it */
static atomic_int started, flag;

static void *worker(void *arg)
{
	(void)arg;
	cell = seed;
	for (int i = 0; i < ROUNDS; i++)
		cell = cell * 31 + i;	/* prework: round */
	atomic_store(&started, 1);
	/* No syscall until main sets the flag: rec preempts this spin. */
	while (!atomic_load(&flag))
		;
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return 1;
	int e = pthread_create(&t, NULL, worker, NULL);
	if (e)
		return fprintf(stderr, "prework: pthread_create: %s\n", strerror(e)), 1;
	while (!atomic_load(&started))
		sched_yield();
	write(1, "main: working\n", 14);
	atomic_store(&flag, 1);
	pthread_join(t, NULL);
	printf("seed %u cell %u\n", seed, cell);
	return 0;
}
