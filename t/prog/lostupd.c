/* lostupd.c: two threads each add 1 to a shared total 3 million times
 * by reading it, computing a little (a counted loop) and writing it
 * back, with no system call between: a switch inside that window loses
 * the other thread's additions. Prints how many were lost, which
 * differs from run to run natively (the threads run side by side), and
 * a random token, which differs even when the losses do not (a loaded
 * machine may run the threads one after the other). */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

#define TURNS 3000000

static volatile unsigned long total;

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < TURNS; i++) {
		unsigned long v = total;
		for (volatile int k = 0; k < 3; k++)
			v += k == 2;
		total = v;
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, adder, NULL) != 0)
		return 1;
	adder(NULL);
	pthread_join(t, NULL);
	unsigned token = 0;
	if (getrandom(&token, sizeof token, 0) != sizeof token)
		return 1;
	printf("lost %lu of %d, token %08x\n", 2ul * TURNS - total, 2 * TURNS, token);
	return 0;
}
