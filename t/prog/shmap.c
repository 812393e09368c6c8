/* shmap.c: one file mapped MAP_SHARED twice in one process: a store
 * through one mapping shows through the other, and so do write(2),
 * pwrite(2), ftruncate and a growing mremap; a read past the file's end
 * raises SIGBUS. Checks each itself; the token is random, so runs differ. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int bus;

static void on_bus(int sig)
{
	bus = sig;
	siglongjmp(env, 1);
}

/* Whether reading p raises SIGBUS. */
static int faults(volatile char *p)
{
	bus = 0;
	if (!sigsetjmp(env, 1))
		(void)*p;
	return bus == SIGBUS;
}

static int bad;
#define CHECK(c) do { if (!(c)) { printf("BAD line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

int main(void)
{
	char path[] = "shmapXXXXXX", buf[64];
	unsigned r;
	getrandom(&r, sizeof r, 0);
	int fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 4096) < 0)
		return perror("file"), 2;
	unlink(path);
	signal(SIGBUS, on_bus);
	char *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *b = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
	if (a == MAP_FAILED || b == MAP_FAILED)
		return perror("mmap"), 2;

	/* A store through a shows through b, and in the file. */
	snprintf(a, 64, "token %08x", r);
	printf("b reads: %.14s\n", b);
	CHECK(!memcmp(a, b, 15));
	CHECK(pread(fd, buf, 14, 0) == 14 && !memcmp(buf, a, 14));

	/* write() and pwrite() show through both. */
	lseek(fd, 100, SEEK_SET);
	int n = snprintf(buf, sizeof buf, "w%08x", r * 3);
	CHECK(write(fd, buf, n) == n);
	n = snprintf(buf, sizeof buf, "p%08x", r * 5);
	CHECK(pwrite(fd, buf, n, 200) == n);
	printf("after write: %.9s %.9s\n", b + 100, a + 200);
	CHECK(!memcmp(a + 100, b + 100, 9) && !memcmp(a + 200, b + 200, 9));

	/* Past the end of the file: SIGBUS, until the file grows. */
	CHECK(faults(b + 4096));
	printf("past the end: %s\n", bus == SIGBUS ? "SIGBUS" : "no fault");
	n = snprintf(buf, sizeof buf, "g%08x", r * 7);
	CHECK(pwrite(fd, buf, n, 5000) == n);
	CHECK(!faults(b + 4096));
	printf("grown: %.9s\n", b + 5000);

	/* mremap grows a over the new page: it shows what pwrite put there. */
	char *a2 = mremap(a, 4096, 8192, MREMAP_MAYMOVE);
	CHECK(a2 != MAP_FAILED);
	if (a2 != MAP_FAILED) {
		a = a2;
		CHECK(!memcmp(a + 5000, buf, n));
		a[6000] = 'X';
		CHECK(b[6000] == 'X');
		CHECK(msync(a, 8192, MS_SYNC) == 0);
	}

	/* Shrinking the file takes the second page away from both. */
	CHECK(ftruncate(fd, 4096) == 0);
	CHECK(faults(b + 4096) && faults(a + 4096));
	CHECK(ftruncate(fd, 8192) == 0);
	CHECK(!faults(b + 4096) && b[6000] == 0);
	printf("after shrink and grow: %d\n", b[6000]);

	/* MADV_DONTNEED on a shared mapping keeps the file's bytes. */
	CHECK(madvise(a, 8192, MADV_DONTNEED) == 0);
	CHECK(!memcmp(a, b, 14) && a[0] == 't');

	/* An appending descriptor writes at the end, pwrite too. */
	snprintf(buf, sizeof buf, "/proc/self/fd/%d", fd);
	int afd = open(buf, O_WRONLY | O_APPEND);
	CHECK(afd >= 0 && write(afd, "A", 1) == 1 && pwrite(afd, "P", 1, 0) == 1);
	char *c = mmap(NULL, 12288, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(c != MAP_FAILED && c[8192] == 'A' && c[8193] == 'P' && c[0] == 't');
	printf("appended: %.2s\n", c + 8192);

	/* read() sees what went through the mapping. */
	a[300] = 'R';
	CHECK(pread(fd, buf, 1, 300) == 1 && buf[0] == 'R');
	printf("%s\n", bad ? "FAILED" : "all aliased");
	return bad;
}
