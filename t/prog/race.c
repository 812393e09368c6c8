/* race.c: two threads check-then-withdraw from one balance with a getppid()
 * inside the window; both withdrawing prints RACE and exits 1, else "ok". A
 * switch at that syscall fails; natively 10 runs in 600 failed (1.7%). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* Each thread computes a random number of turns (up to SPREAD) after the
 * start, so natively the two short windows rarely meet. */
#define SPREAD 500000u

static volatile int balance = 100;
static atomic_int ready, go;
static unsigned delay[2];

static void *withdraw(void *arg)
{
	int id = (int)(long)arg;

	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&go))
		sched_yield();
	for (volatile unsigned i = 0; i < delay[id]; i++)
		;
	if (balance >= 80) {
		getppid();	/* the window: the other thread may check here */
		balance -= 80;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	getrandom(delay, sizeof delay, 0);
	delay[0] %= SPREAD;
	delay[1] %= SPREAD;
	for (long i = 0; i < 2; i++) {
		int e = pthread_create(&t[i], NULL, withdraw, (void *)i);
		if (e)
			return fprintf(stderr, "race: pthread_create: %s\n", strerror(e)), 1;
	}
	while (atomic_load(&ready) < 2)
		sched_yield();
	atomic_store(&go, 1);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	if (balance < 0) {
		printf("RACE: balance %d\n", balance);
		return 1;
	}
	printf("ok\n");
	return 0;
}
