/* segvthr.c: a thread sleeps (or, with "spin", computes) for ever while
 * main prints a random token and then writes to address 8: the process
 * dies by SIGSEGV. Usage: segvthr [spin] */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile int started;

static void *worker(void *arg)
{
	started = 1;
	if (arg)
		for (;;)
			sink = sink * 6364136223846793005ul + 1;
	for (;;)
		sleep(1);
	return NULL;
}

int main(int argc, char **argv)
{
	int spin = argc > 1 && !strcmp(argv[1], "spin");
	pthread_t t;
	pthread_create(&t, NULL, worker, spin ? "" : NULL);
	while (!started)
		usleep(1000);
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	*(volatile int *)8 = 1;
	return 0;
}
