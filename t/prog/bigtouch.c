/* bigtouch.c: 64 MiB of memory, all of it written once, then 40 rounds
 * that each change one page and make a system call; it prints a sum of
 * the memory and a clock reading, which differ from run to run. For
 * tseek's index: it should grow with the pages written, not with the
 * checkpoints times the memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void)
{
	size_t n = 64ul << 20;
	uint8_t *p = malloc(n);
	if (!p)
		return 1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + ts.tv_nsec);
	uint64_t sum = 0;
	for (int r = 0; r < 40; r++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		p[(size_t)r * 1607 * 4096 % n] ^= (uint8_t)ts.tv_nsec | 1;
		for (size_t i = 0; i < n; i += 4096)
			sum += p[i];
		printf("round %d %llu\n", r, (unsigned long long)(sum % 1000003));
		fflush(stdout);	/* a write each round: events between the changes */
	}
	return 0;
}
