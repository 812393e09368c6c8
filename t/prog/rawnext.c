/* rawnext.c: one thread makes calls the syscall buffer logs (writes to
 * /dev/null), another closes pipe ends (a call the library leaves to
 * libc's wrapper), both computing in between; prints the sums and a
 * random token. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

#define ROUNDS 300

static uint64_t spin(uint64_t x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static void *logger(void *arg)
{
	int fd = open("/dev/null", O_WRONLY);
	uint64_t x = (uintptr_t)arg;
	for (int i = 0; i < ROUNDS; i++) {
		(void)!write(fd, &x, 1);
		x = spin(x, 20000 + i);
	}
	return (void *)(uintptr_t)x;
}

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	pthread_t t;
	pthread_create(&t, NULL, logger, (void *)(uintptr_t)7);
	uint64_t x = 3;
	for (int i = 0; i < ROUNDS; i++) {
		int p[2];
		if (pipe(p) == 0) {
			close(p[0]);
			close(p[1]);
		}
		x = spin(x, 20000 + 2 * i);
	}
	void *r;
	pthread_join(t, &r);
	printf("sums %llu %llu token %u\n", (unsigned long long)x, (unsigned long long)(uintptr_t)r,
	       token);
	return 0;
}
