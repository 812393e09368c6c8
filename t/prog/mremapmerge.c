/* mremapmerge.c: mremap of a mapping the kernel merged from two
 * neighbours: anonymous ones, and a file's private ones (one fd, so one
 * open file: merged), grown by moving and in place. Prints the pid and
 * what the grown mappings hold. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PG 4096

int main(void)
{
	printf("pid %d\n", (int)getpid());
	char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(a, 4 * PG);
	char *x = mmap(a, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	char *y = mmap(a + PG, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	x[0] = 1;
	y[0] = 2;
	char *z = mremap(x, 2 * PG, 16 * PG, MREMAP_MAYMOVE);
	printf("anon moved: %s %d %d\n", z == MAP_FAILED ? "failed" : "ok", z[0], z[PG]);
	FILE *f = fopen("mremapmerge.tmp", "w+");
	char buf[6 * PG];
	for (int i = 0; i < 6; i++)
		memset(buf + i * PG, 10 + i, PG);
	fwrite(buf, 1, sizeof buf, f);
	fflush(f);
	char *b = mmap(NULL, 3 * PG, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	munmap(b, 3 * PG);
	mmap(b, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fileno(f), 0);
	mmap(b + PG, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fileno(f), PG);
	char *c = mremap(b, 3 * PG, 5 * PG, MREMAP_MAYMOVE);
	printf("file moved: %s %d %d %d\n", c == MAP_FAILED ? "failed" : "ok", c[0], c[2 * PG],
	       c[4 * PG]);
	char *d = mmap(NULL, 6 * PG, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	munmap(d, 6 * PG);
	mmap(d, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fileno(f), 0);
	mmap(d + PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fileno(f), PG);
	char *g = mremap(d, 2 * PG, 6 * PG, 0);
	printf("file in place: %s %d %d %d\n", g == d ? "same" : "failed", g[0], g[PG], g[5 * PG]);
	unlink("mremapmerge.tmp");
	return 0;
}
