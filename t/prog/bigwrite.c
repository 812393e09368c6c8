/* bigwrite.c: writes argv[1] (256) MiB of fresh memory, every 64 KiB
 * block different but compressible (argv[2] "random": random bytes,
 * which do not compress), then computes with no syscall until
 * a timer's second SIGALRM comes, which preempts it there under rec with
 * all of that memory in one record (the first may come at setitimer's
 * end already, on a loaded machine); prints a checksum that differs from
 * run to run. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/time.h>

static volatile sig_atomic_t rang;

static void on_alarm(int sig)
{
	(void)sig;
	rang++;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256, words = (mib << 20) / 8;
	uint64_t x = 0, page[512];
	if (getrandom(&x, sizeof x, 0) != sizeof x)
		return 1;
	x |= 1;
	for (int i = 0; i < 512; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		page[i] = x;
	}
	uint64_t *mem = mmap(NULL, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
	if (mem == MAP_FAILED)
		return perror("mmap"), 1;
	/* One random page repeated, each page's first word its number: the
	 * trace compresses it well, yet no two blocks hash alike. */
	int noise = argc > 2 && !strcmp(argv[2], "random");
	for (size_t i = 0; i < words; i++) {
		if (noise)
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		mem[i] = noise ? x : i % 512 ? page[i % 512] : page[0] ^ i;
	}
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } }, off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	uint64_t sum = 0;
	while (rang < 2)
		for (int i = 0; i < 1000; i++)
			sum += mem[(sum + i) % words] & 1;
	setitimer(ITIMER_REAL, &off, NULL);
	for (size_t i = 0; i < words; i += 4096)
		sum += mem[i];
	printf("sum %llx last %llx\n", (unsigned long long)sum, (unsigned long long)x);
	return 0;
}
