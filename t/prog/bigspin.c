/* bigspin.c: fills a 64 MiB array with random bytes once, then two threads
 * compute with no syscall, each writing 128 words of the array at places
 * drawn from the random seed; prints a checksum. Under rec the threads are
 * preempted many times while most of the array never changes again. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#define WORDS (64u << 20) / 8
#define ITERS 40000000u
#define WRITES 128u

static uint64_t *arr;
static uint64_t seed;

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void *work(void *arg)
{
	uint64_t x = seed + (uintptr_t)arg * 0x9e3779b97f4a7c15ull, sum = 0;
	for (uint32_t i = 0; i < ITERS; i++) {
		sum += next(&x) >> 3;
		if (i % (ITERS / WRITES) == 0)
			arr[x % WORDS] = sum;
	}
	return (void *)(uintptr_t)sum;
}

int main(void)
{
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return perror("getrandom"), 1;
	seed |= 1;
	arr = malloc(WORDS * 8);
	if (!arr)
		return perror("malloc"), 1;
	uint64_t x = seed;
	for (uint32_t i = 0; i < WORDS; i++)
		arr[i] = next(&x);
	pthread_t t[2];
	for (uintptr_t i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i))
			return fprintf(stderr, "bigspin: pthread_create failed\n"), 1;
	uint64_t sum = 0;
	for (int i = 0; i < 2; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (uintptr_t)r;
	}
	for (uint32_t i = 0; i < WORDS; i += 4096)
		sum += arr[i];
	printf("seed %016llx sum %016llx\n", (unsigned long long)seed, (unsigned long long)sum);
	return 0;
}
