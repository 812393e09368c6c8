/* compute.c: bench workload with no syscalls in its loop: about a second
 * of integer arithmetic (xorshift), then one line of output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 450000000L;
	uint64_t x = 88172645463325252ull, acc = 0;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += x >> 60;
	}
	printf("%llu\n", (unsigned long long)acc);
	return 0;
}
