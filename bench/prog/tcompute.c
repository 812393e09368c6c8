/* tcompute.c: bench workload of threaded computation: two threads each
 * compute about a quarter of a second (xorshift) with no syscall, so
 * that rec preempts them in turn, in loops whose state never repeats. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long n = 110000000L;

static void *worker(void *arg)
{
	uint64_t x = 88172645463325252ull + (uintptr_t)arg, acc = 0;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += x >> 60;
	}
	return (void *)(uintptr_t)acc;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	void *r[2];
	if (argc > 1)
		n = atol(argv[1]);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i))
			return fprintf(stderr, "tcompute: pthread_create failed\n"), 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &r[i]);
	printf("%llu %llu\n", (unsigned long long)(uintptr_t)r[0], (unsigned long long)(uintptr_t)r[1]);
	return 0;
}
