/* reserve.c: bench workload for huge reservations: 1 TiB reserved
 * PROT_NONE|MAP_NORESERVE (as JVMs, V8, Go and ASan do), ten pages of it
 * made read-write and written, while a thread spins and main computes
 * about a quarter of a second writing them (so rec preempts). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

static atomic_int started, flag;

static void *spinner(void *arg)
{
	(void)arg;
	atomic_store(&started, 1);
	while (!atomic_load(&flag))
		;
	return NULL;
}

int main(void)
{
	size_t len = 1ull << 40, step = len / 10 / 4096 * 4096;
	char *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	for (int i = 0; i < 10; i++)
		if (mprotect(p + i * step, 4096, PROT_READ | PROT_WRITE) < 0)
			return perror("mprotect"), 1;
	pthread_t t;
	if (pthread_create(&t, NULL, spinner, NULL))
		return fprintf(stderr, "reserve: pthread_create failed\n"), 1;
	while (!atomic_load(&started))
		sched_yield();
	uint64_t x = 88172645463325252ull, acc = 0;
	for (int c = 0; c < 50; c++) {
		for (long i = 0; i < 2000000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		((uint64_t *)(p + (c % 10) * step))[c] = x;
		acc += x;
	}
	atomic_store(&flag, 1);
	pthread_join(t, NULL);
	printf("%llu\n", (unsigned long long)acc);
	return 0;
}
