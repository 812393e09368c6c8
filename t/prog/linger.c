/* linger.c: main starts a thread that waits forever, prints a random
 * number and exits with the thread still there: the process ends at
 * once, so a debugger's history ends before main's exit_group. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

static void *wait_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	pthread_t t;
	unsigned v;
	pthread_create(&t, NULL, wait_forever, NULL);
	getrandom(&v, sizeof v, 0);
	printf("linger %08x\n", v);
	return 0;
}
