/* bufpoint.c: main computes in chunks with a write to /dev/null (a call
 * the syscall buffer logs) after each, while a second thread spins, so
 * that preemptions of main come right after buffered calls; prints the
 * sum and a random token. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
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

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	int fd = open("/dev/null", O_WRONLY);
	pthread_t t;
	if (fd < 0 || pthread_create(&t, NULL, spinner, NULL))
		return 1;
	while (!atomic_load(&started))
		sched_yield();
	uint64_t x = 88172645463325252ull ^ token, acc = 0;
	for (int c = 0; c < 40; c++) {
		for (long i = 0; i < 2000000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			acc += x >> 60;
		}
		write(fd, "x", 1);
	}
	atomic_store(&flag, 1);
	pthread_join(t, NULL);
	printf("sum %llu token %08x\n", (unsigned long long)acc, token);
	return 0;
}
