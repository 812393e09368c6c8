/* mmap-data.c: maps each file named on the command line read-only (from a
 * descriptor open for reading and writing when the name starts with +)
 * and prints a checksum of what the mapping holds, then random bytes so
 * that every run differs. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int rw = argv[i][0] == '+';
		int fd = open(argv[i] + rw, rw ? O_RDWR : O_RDONLY);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0)
			return perror(argv[i] + rw), 1;
		const unsigned char *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			return perror("mmap"), 1;
		uint64_t h = 1469598103934665603ull;
		for (off_t k = 0; k < st.st_size; k++)
			h = (h ^ p[k]) * 1099511628211ull;
		printf("%s: %lld bytes, sum %016llx\n", argv[i] + rw, (long long)st.st_size,
		       (unsigned long long)h);
		close(fd);
	}
	uint64_t r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return perror("getrandom"), 1;
	printf("random %016llx\n", (unsigned long long)r);
	return 0;
}
