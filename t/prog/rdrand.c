/* rdrand.c: lets rdrand (which replay cannot pin) decide how many bytes
 * each write has, so that replay must detect the divergence. With the
 * argument "thread", a second thread waits in pause() meanwhile.
 * Exits 77 when the CPU has no rdrand. */
#include <cpuid.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint64_t rdrand(void)
{
	uint64_t v;
	unsigned char ok;
	do
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok));
	while (!ok);
	return v;
}

static void *waiter(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_RDRND)) {
		printf("no rdrand\n");
		return 77;
	}
	pthread_t t;
	if (argc > 1 && !strcmp(argv[1], "thread"))
		pthread_create(&t, NULL, waiter, NULL);
	static char buf[2048];
	for (int i = 0; i < 4; i++) {
		size_t n = 1 + rdrand() % 1000;
		memset(buf, 'a' + i, n);
		buf[n] = '\n';
		write(1, buf, n + 1);
	}
	return 0;
}
