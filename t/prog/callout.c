/* callout.c: main fills 32 MiB with getrandom, a call the kernel takes
 * a while over, writing as it goes, three times, while two threads
 * compute and are preempted at points between: rec hashes main's buffer
 * half written where replay, at the call's entry, has not written it.
 * Prints a sum of the random bytes. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#define SIZE (32u << 20)

static volatile int done;

static void *spin(void *arg)
{
	volatile uint64_t *n = arg;
	while (!done)
		++*n;
	return NULL;
}

int main(void)
{
	uint8_t *buf = malloc(SIZE);
	static uint64_t n[2];
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin, &n[i]);
	uint64_t sum = 0;
	for (int k = 0; k < 3; k++) {
		for (size_t got = 0; got < SIZE;) {
			ssize_t r = getrandom(buf + got, SIZE - got, 0);
			if (r < 0)
				return 1;
			got += (size_t)r;
		}
		for (size_t i = 0; i < SIZE; i += 4096)
			sum = sum * 31 + buf[i];
	}
	done = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("sum %016llx\n", (unsigned long long)sum);
	return 0;
}
