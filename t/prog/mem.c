/* mem.c: anonymous mmap, mremap, madvise(MADV_DONTNEED), munmap and
 * brk/sbrk on random contents; prints addresses and checksums. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define PG 4096

static uint64_t sum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

int main(void)
{
	unsigned char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return perror("mmap"), 1;
	for (size_t got = 0; got < 4 * PG;)
		got += getrandom(a + got, 4 * PG - got, 0);
	unsigned char seed = a[0];
	printf("anon %p sum %016llx\n", (void *)a, (unsigned long long)sum(a, 4 * PG));

	/* Block the next pages so that growing must move. */
	void *block = mmap(a + 4 * PG, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	unsigned char *b = mremap(a, 4 * PG, 16 * PG, MREMAP_MAYMOVE);
	if (b == MAP_FAILED)
		return perror("mremap"), 1;
	memset(b + 4 * PG, b[0], 12 * PG);
	printf("mremap %p moved %d block %d sum %016llx\n", (void *)b, b != a,
	       block != MAP_FAILED, (unsigned long long)sum(b, 16 * PG));

	if (madvise(b + PG, PG, MADV_DONTNEED) < 0)
		return perror("madvise"), 1;
	int zero = 1;
	for (int i = 0; i < PG; i++)
		zero &= b[PG + i] == 0;
	printf("dontneed zero %d sum %016llx\n", zero, (unsigned long long)sum(b, 16 * PG));

	if (munmap(b + 8 * PG, 8 * PG) < 0)
		return perror("munmap"), 1;
	b = mremap(b, 8 * PG, 2 * PG, 0);
	printf("shrunk %p sum %016llx\n", (void *)b, (unsigned long long)sum(b, 2 * PG));
	munmap(b, 2 * PG);

	char *brk0 = sbrk(0);
	char *p = sbrk(10 * PG);
	if (p == (void *)-1)
		return perror("sbrk"), 1;
	memset(p, 0, 10 * PG);
	for (int i = 0; i < 10 * PG; i += 97)
		p[i] = (char)(seed + i);
	char *brk1 = sbrk(0);
	printf("brk %p -> %p (+%ld) sum %016llx\n", (void *)brk0, (void *)brk1,
	       (long)(brk1 - brk0), (unsigned long long)sum((unsigned char *)p, 10 * PG));
	sbrk(-5 * PG);
	printf("brk after shrink +%ld\n", (long)((char *)sbrk(0) - brk0));
	return 0;
}
