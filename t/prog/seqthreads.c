/* seqthreads.c: makes N threads (default 1000) one after another, each
 * joined before the next starts; each adds a random number to a sum,
 * which main prints at the end. Usage: seqthreads [N] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

static unsigned long sum;

static void *work(void *arg)
{
	unsigned r = 0;
	(void)arg;
	if (getrandom(&r, sizeof r, 0) == sizeof r)
		sum += r % 1000;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, work, NULL) || pthread_join(t, NULL))
			return 1;
	}
	printf("%d threads, sum %lu\n", n, sum);
	return 0;
}
