/* fibrec.c: two threads compute Fibonacci numbers by recursion, one
 * through direct calls, the other through a function pointer: cycles
 * with no backward jump, counted only at their calls. Prints the sums,
 * which a random seed makes differ run to run. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

static unsigned seed;
static unsigned long (*volatile via)(unsigned);

__attribute__((noinline)) unsigned long fib_direct(unsigned n)
{
	return n < 2 ? n + seed : fib_direct(n - 1) + fib_direct(n - 2);
}

__attribute__((noinline)) unsigned long fib_pointer(unsigned n)
{
	return n < 2 ? n + seed : via(n - 1) + via(n - 2);
}

static void *run(void *a)
{
	return (void *)(a ? fib_direct(30) : fib_pointer(30));
}

int main(void)
{
	pthread_t t[2];
	void *r[2];
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return 1;
	seed &= 0xff;
	via = fib_pointer;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &r[i]);
	printf("%lu %lu\n", (unsigned long)r[0], (unsigned long)r[1]);
	return 0;
}
