/* mmap-file.c: writes random bytes to a file in the working directory, maps
 * it MAP_SHARED and MAP_PRIVATE, changes both mappings and prints what the
 * mappings and the file then hold. */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define LEN (3 * 4096 + 100)

static uint64_t sum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

int main(void)
{
	static unsigned char data[LEN], back[LEN];
	for (size_t got = 0; got < LEN;)
		got += getrandom(data + got, LEN - got, 0);
	int fd = open("mapped", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, LEN) != LEN)
		return perror("mapped"), 1;
	printf("file %016llx first %02x%02x\n", (unsigned long long)sum(data, LEN), data[0], data[1]);

	unsigned char *sh = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	unsigned char *pv = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (sh == MAP_FAILED || pv == MAP_FAILED)
		return perror("mmap"), 1;
	printf("shared %016llx private %016llx\n", (unsigned long long)sum(sh, LEN),
	       (unsigned long long)sum(pv, LEN));

	/* A private write stays private; a shared one reaches the file. */
	pv[5000] ^= 0xff;
	sh[10] = 'S';
	sh[LEN - 1] = 'E';
	if (msync(sh, LEN, MS_SYNC) < 0)
		return perror("msync"), 1;
	if (pread(fd, back, LEN, 0) != LEN)
		return perror("pread"), 1;
	printf("after: shared %016llx private %016llx file %016llx\n",
	       (unsigned long long)sum(sh, LEN), (unsigned long long)sum(pv, LEN),
	       (unsigned long long)sum(back, LEN));
	printf("file[10] %c file[end] %c private[10] %c\n", back[10], back[LEN - 1], pv[10]);

	/* A mapping with an offset, read-only. */
	unsigned char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 4096);
	if (ro == MAP_FAILED)
		return perror("mmap offset"), 1;
	printf("offset map %016llx\n", (unsigned long long)sum(ro, 4096));
	munmap(ro, 4096);
	munmap(sh, LEN);
	munmap(pv, LEN);
	close(fd);
	unlink("mapped");
	return 0;
}
