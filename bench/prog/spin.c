/* spin.c: bench workload for preemption: a thread spins on an atomic flag
 * with no syscall while main computes about half a second, writing to
 * /dev/null every few ms, then sets the flag. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int started, flag;

static void *spinner(void *arg)
{
	(void)arg;
	atomic_store(&started, 1);
	while (!atomic_load(&flag))
		;
	return NULL;
}

int main(int argc, char **argv)
{
	long chunks = argc > 1 ? atol(argv[1]) : 50;
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return perror("/dev/null"), 1;
	pthread_t t;
	if (pthread_create(&t, NULL, spinner, NULL))
		return fprintf(stderr, "spin: pthread_create failed\n"), 1;
	while (!atomic_load(&started))
		sched_yield();
	uint64_t x = 88172645463325252ull, acc = 0;
	for (long c = 0; c < chunks; c++) {
		for (long i = 0; i < 2200000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			acc += x >> 60;
		}
		write(fd, "x", 1);
	}
	atomic_store(&flag, 1);
	pthread_join(t, NULL);
	printf("%llu\n", (unsigned long long)acc);
	return 0;
}
