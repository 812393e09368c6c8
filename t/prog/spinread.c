/* spinread.c: makes a thread (so that its process is counted lazily),
 * prints a random seed, then reads one byte from stdin with readv (a
 * call the loader and libc's start do not make, so a test finds its
 * record by number). 'h' makes it spin for ever with no call; anything
 * else, a few million counted edges from the seed before it prints the
 * result. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/uio.h>

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	unsigned long x = 0;
	char c = 0;
	struct iovec iov = { &c, 1 };
	getrandom(&x, sizeof x, 0);
	pthread_t t;
	if (pthread_create(&t, NULL, nothing, NULL) || pthread_join(t, NULL))
		return 1;
	printf("seed %lx\n", x);
	fflush(stdout);
	if (readv(0, &iov, 1) != 1)
		return 2;
	for (long i = 0; c == 'h' || i < 3000000; i++)
		x = x * 6364136223846793005ul + (x >> 29);
	printf("%lx\n", x);
	return 0;
}
