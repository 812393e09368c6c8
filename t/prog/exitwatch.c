/* exitwatch.c: a thread ends (glibc gives its stack back with madvise on
 * the way out), then the main thread writes `target` again: a watchpoint
 * on it must stop at both writes after the thread is gone. Prints a value
 * that differs run to run. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

volatile unsigned long target;

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 1;
	target = r;		/* first write */
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	target = r + 1ul;	/* second write */
	printf("target %lx\n", target);
	return 0;
}
