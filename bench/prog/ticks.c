/* ticks.c: bench workload for seeking: about ten seconds of integer
 * arithmetic (xorshift) with one write(2) of the running sum every 10 ms
 * of work, so events are spread evenly through the run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long ticks = argc > 1 ? atol(argv[1]) : 1000;
	long per = argc > 2 ? atol(argv[2]) : 4500000L;	/* about 10 ms here */
	uint64_t x = 88172645463325252ull, acc = 0;
	for (long t = 0; t < ticks; t++) {
		for (long i = 0; i < per; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			acc += x >> 60;
		}
		char buf[64];
		int n = snprintf(buf, sizeof buf, "%ld %llu\n", t, (unsigned long long)acc);
		if (write(1, buf, n) != n)
			return 1;
	}
	return 0;
}
