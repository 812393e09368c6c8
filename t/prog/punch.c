/* punch.c: a file mapped shared, filled with random bytes, gets a hole
 * punched and a range zeroed with fallocate: the mapping shows zeros
 * there and the old bytes around. Prints a sum of each region (they
 * differ run to run) and whether the zeros show. Usage: punch FILE */
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define SIZE (1 << 20)

static unsigned long sum(const unsigned char *p, long n)
{
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

static int zeros(const unsigned char *p, long n)
{
	for (long i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static unsigned char buf[SIZE];
	if (argc < 2)
		return 2;
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (long i = 0; i < SIZE; i += 256)
		if (getrandom(buf + i, 256, 0) != 256)
			return 1;
	if (fd < 0 || write(fd, buf, SIZE) != SIZE)
		return 1;
	unsigned char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	printf("before %lx\n", sum(p, SIZE));
	int r1 = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 65536, 4096);
	int r2 = fallocate(fd, FALLOC_FL_ZERO_RANGE, 131072, 8192);
	int r3 = fallocate(fd, FALLOC_FL_ZERO_RANGE, SIZE - 4096, 16384);	/* grows the file */
	printf("punch %d zero %d grow %d size %ld\n", r1, r2, r3, (long)lseek(fd, 0, SEEK_END));
	printf("hole %s zeroed %s\n", r1 ? "-" : zeros(p + 65536, 4096) ? "zeros" : "bytes",
	       r2 ? "-" : zeros(p + 131072, 8192) ? "zeros" : "bytes");
	printf("around %lx %lx\n", sum(p, 65536), sum(p + 65536 + 4096, 65536 - 4096));
	return 0;
}
