/* watched.c: about a second of computing without syscalls that writes the
 * global `watched` every few thousand iterations, for timing reverse
 * execution (bench/run.sh watches it and goes backwards). */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long watched;

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 400000000ul;
	unsigned long every = argc > 2 ? strtoul(argv[2], NULL, 0) : 100000ul;
	unsigned long h = 0x9e3779b97f4a7c15ul;
	for (unsigned long i = 0; i < n; i++) {
		h ^= h << 13;
		h ^= h >> 7;
		h ^= h << 17;
		if (i % every == 0)
			watched = h; /* WRITE */
	}
	printf("%lx %lx\n", h, watched);
	return 0;
}
