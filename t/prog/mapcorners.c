/* mapcorners.c: corners of the memory-map calls: a fault on a PROT_NONE
 * page handled by making it accessible, madvise(MADV_DONTNEED) on
 * private anonymous, private file and shared mappings, MADV_REMOVE,
 * mlock, a private mapping grown with mremap while another mapping sits
 * after it, a private file mapping read past the file's end (SIGBUS) and
 * one the file grows under. Checks itself; the token is random. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define PG 4096
static char *prot_page;
static volatile uintptr_t fault_at;
static sigjmp_buf env;
static volatile int bus;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	fault_at = (uintptr_t)si->si_addr;
	mprotect(prot_page, PG, PROT_READ | PROT_WRITE);	/* the access is retried */
}

static void on_bus(int sig)
{
	bus = sig;
	siglongjmp(env, 1);
}

static int bad;
#define CHECK(c) do { if (!(c)) { printf("BAD line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);

	/* PROT_NONE, a fault, a handler that opens the page up. */
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	sigaction(SIGSEGV, &sa, NULL);
	prot_page = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	prot_page[10] = (char)r;
	CHECK(mprotect(prot_page, PG, PROT_NONE) == 0);
	((volatile char *)prot_page)[20] = (char)(r >> 8);
	CHECK(fault_at == (uintptr_t)prot_page + 20);
	CHECK(prot_page[10] == (char)r && prot_page[20] == (char)(r >> 8));
	printf("fault at +%d, page holds %02x %02x\n", (int)(fault_at - (uintptr_t)prot_page),
	       (unsigned char)prot_page[10], (unsigned char)prot_page[20]);

	/* MADV_DONTNEED: private anonymous pages come back zero. */
	char *anon = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(anon, 0x5a, 2 * PG);
	CHECK(madvise(anon, 2 * PG, MADV_DONTNEED) == 0);
	CHECK(anon[0] == 0 && anon[PG + 5] == 0);

	/* A private file mapping reads the file again; a shared anonymous
	 * one keeps its bytes. */
	char path[] = "cornersXXXXXX";
	int fd = mkstemp(path);
	unlink(path);
	char line[64];
	int n = snprintf(line, sizeof line, "file %08x", r);
	if (fd < 0 || pwrite(fd, line, n, 0) != n || ftruncate(fd, PG) < 0)
		return perror("file"), 2;
	char *pf = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char *sh = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pf[0] = 'X';
	sh[0] = 'S';
	CHECK(madvise(pf, PG, MADV_DONTNEED) == 0 && madvise(sh, PG, MADV_DONTNEED) == 0);
	CHECK(!memcmp(pf, line, n) && sh[0] == 'S');
	printf("private file after DONTNEED: %.13s\n", pf);

	/* A private file mapping shows a write to the file in a page it
	 * has not copied, not in one it has. */
	char *pv = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(ftruncate(fd, 2 * PG) == 0 && pv[0] == 'f');
	pv[PG] = 'c';
	n = snprintf(line, sizeof line, "new %08x", r);
	CHECK(pwrite(fd, line, n, 0) == n && pwrite(fd, line, n, PG + 1) == n);
	CHECK(!memcmp(pv, line, n) && pv[PG] == 'c' && pv[PG + 1] == 0);
	printf("private after pwrite: %.12s\n", pv);
	CHECK(ftruncate(fd, PG) == 0);

	/* MADV_REMOVE on a shared file mapping punches a hole in the file. */
	char *sf = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(madvise(sf, PG, MADV_REMOVE) == 0);
	CHECK(sf[0] == 0 && pread(fd, line, 1, 0) == 1 && line[0] == 0);

	/* mlock and munlock. */
	CHECK(mlock(anon, PG) == 0 && munlock(anon, PG) == 0);

	/* A private mapping grows while another mapping sits right after
	 * it: mremap moves it, bytes and all. */
	char *g = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *after = mmap(g + 2 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(after == g + 2 * PG);
	snprintf(g + PG, 32, "grow %08x", r);
	char *g2 = mremap(g, 2 * PG, 8 * PG, MREMAP_MAYMOVE);
	CHECK(g2 != MAP_FAILED && g2 != g && !strncmp(g2 + PG, "grow ", 5) && g2[7 * PG] == 0);
	printf("grown %s: %.13s\n", g2 == g ? "in place" : "and moved", g2 + PG);

	/* A private file mapping past the file's end: SIGBUS there. */
	signal(SIGBUS, on_bus);
	int sfd = open(".", O_TMPFILE | O_RDWR, 0600);
	if (sfd < 0 || write(sfd, &r, 4) != 4)
		return perror("tmpfile"), 2;
	unsigned *sp = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, sfd, 0);
	CHECK(sp[0] == r);
	if (!sigsetjmp(env, 1))
		(void)((volatile char *)sp)[PG];
	CHECK(bus == SIGBUS);
	printf("past the end: %s\n", bus == SIGBUS ? "SIGBUS" : "no fault");

	/* The same through a descriptor open only for reading. */
	char rpath[64];
	snprintf(rpath, sizeof rpath, "/proc/self/fd/%d", sfd);
	int rfd = open(rpath, O_RDONLY);
	char *rp = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, rfd, 0);
	bus = 0;
	if (!sigsetjmp(env, 1))
		(void)((volatile char *)rp)[PG + 1];
	CHECK(rp != MAP_FAILED && bus == SIGBUS);
	printf("past the end, read-only: %s\n", bus == SIGBUS ? "SIGBUS" : "no fault");

	/* A private mapping of an empty file the file then grows under. */
	int efd = open(".", O_TMPFILE | O_RDWR, 0600);
	char *ep = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, efd, 0);
	CHECK(ep != MAP_FAILED && ftruncate(efd, PG) == 0);
	ep[0] = 'x';
	CHECK(ep[0] == 'x' && ep[1] == 0);
	printf("%s\n", bad ? "FAILED" : "all corners");
	return bad;
}
