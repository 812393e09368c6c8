/* restartstop.c: threads that each compute a little, then sleep 1 ms
 * (clock_nanosleep, restarted through restart_syscall when a signal
 * nobody sees interrupts it), many rounds; prints the sums and a random
 * token. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>

#define THREADS 4
#define ROUNDS 150

static void *worker(void *arg)
{
	uint64_t x = (uintptr_t)arg;
	struct timespec ts = { 0, 1000000 };
	for (int i = 0; i < ROUNDS; i++) {
		for (int k = 0; k < 30000; k++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	return (void *)(uintptr_t)x;
}

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
	uint64_t sum = 0;
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (uintptr_t)r;
	}
	printf("sum %llu token %u\n", (unsigned long long)sum, token);
	return 0;
}
