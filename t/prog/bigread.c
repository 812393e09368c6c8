/* bigread.c: reads MiB (default 64) MiB from a file such as /dev/urandom or
 * /dev/zero in 1 MiB reads and prints a checksum and the time taken.
 * Usage: bigread FILE [MiB] */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return fprintf(stderr, "usage: bigread FILE [MiB]\n"), 2;
	long mib = argc > 2 ? atol(argv[2]) : 64;
	static unsigned char buf[1 << 20];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return perror(argv[1]), 1;
	uint64_t h = 1469598103934665603ull, total = 0;
	while (total < (uint64_t)mib << 20) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i += 8)
			h = (h ^ *(uint64_t *)(buf + i)) * 1099511628211ull;
		total += n;
	}
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: %llu bytes sum %016llx\n", argv[1], (unsigned long long)total,
	       (unsigned long long)h);
	printf("took %ld ns\n", (long)((t1.tv_sec - t0.tv_sec) * 1000000000L + t1.tv_nsec - t0.tv_nsec));
	return 0;
}
