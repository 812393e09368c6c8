/* faultlate.c: makes a thread (so that its process is counted lazily),
 * computes for a few million counted edges from a random seed, prints
 * the result and then writes to address 8: the process dies by SIGSEGV
 * far from its last call. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	unsigned long x = 0;
	getrandom(&x, sizeof x, 0);
	pthread_t t;
	if (pthread_create(&t, NULL, nothing, NULL) || pthread_join(t, NULL))
		return 1;
	printf("seed %lx\n", x);
	fflush(stdout);
	for (long i = 0; i < 3000000; i++)
		x = x * 6364136223846793005ul + (x >> 29);
	*(volatile unsigned long *)(8 + (x & 0)) = x;
	return 0;
}
