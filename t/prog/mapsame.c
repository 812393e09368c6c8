/* mapsame.c: maps a file of random bytes whole and privately, then maps
 * parts of it again over that mapping with MAP_FIXED, as the dynamic
 * loader maps a library's segments: at the same offset (pages untouched,
 * then written and so copied), and at another offset; prints what each
 * mapping then holds. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define LEN (256 << 10)
#define SEG (64 << 10)

static uint64_t sum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static unsigned char *remap(unsigned char *at, int prot, int fd, off_t off)
{
	unsigned char *m = mmap(at, SEG, prot, MAP_PRIVATE | MAP_FIXED, fd, off);
	if (m != at) {
		perror("mmap");
		_exit(1);
	}
	return m;
}

int main(void)
{
	static unsigned char data[LEN];
	for (size_t got = 0; got < LEN;)
		got += getrandom(data + got, LEN - got, 0);
	/* No 0f byte, so no rdtsc for rec's patch fallback to find in the
	 * pieces mapped executable (it would patch those data). */
	for (size_t i = 0; i < LEN; i++)
		data[i] ^= data[i] == 0x0f;
	int fd = open("lib", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, LEN) != LEN || close(fd) < 0)
		return perror("lib"), 1;
	/* Read only, as a library is: rec keeps a copy of the file. */
	if ((fd = open("lib", O_RDONLY)) < 0)
		return perror("lib"), 1;
	printf("file %016llx\n", (unsigned long long)sum(data, LEN));
	unsigned char *m = mmap(NULL, LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 1;
	/* The same offset, untouched: its bytes, now writable. */
	unsigned char *s = remap(m + SEG, PROT_READ | PROT_WRITE, fd, SEG);
	printf("same %016llx\n", (unsigned long long)sum(s, SEG));
	s[100] ^= 0x5a;		/* a private copy of that page */
	printf("written %016llx\n", (unsigned long long)sum(m, LEN));
	/* The same offset again: the written page is the file's again. */
	remap(m + SEG, PROT_READ, fd, SEG);
	printf("again %016llx %d\n", (unsigned long long)sum(m, LEN), sum(m, LEN) == sum(data, LEN));
	/* Another offset: the bytes of the third piece at the first. */
	remap(m, PROT_READ | PROT_EXEC, fd, 2 * SEG);
	printf("moved %016llx %d\n", (unsigned long long)sum(m, SEG), sum(m, SEG) == sum(data + 2 * SEG, SEG));
	/* The last piece executable at its place: a text segment. */
	remap(m + 3 * SEG, PROT_READ | PROT_EXEC, fd, 3 * SEG);
	printf("text %016llx\n", (unsigned long long)sum(m + 3 * SEG, SEG));
	return 0;
}
