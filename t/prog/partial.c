/* partial.c: calls that fail after changing a part of their range. A
 * madvise(MADV_DONTNEED) over a hole (ENOMEM) empties the pages before
 * and after it; one over a locked page (EINVAL) empties those before it;
 * an mprotect over a hole (ENOMEM) makes the pages before it writable.
 * Each page holds a random byte first; what is left is printed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char r[4];
	if (getrandom(r, sizeof r, 0) != sizeof r)
		return 2;
	r[0] |= 1, r[1] |= 1, r[2] |= 1, r[3] |= 1;	/* never 0 */
	/* Three pages, the middle one unmapped. */
	unsigned char *m = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || munmap(m + ps, ps))
		return 3;
	m[0] = r[0], m[2 * ps] = r[1];
	int rv = madvise(m, 3 * ps, MADV_DONTNEED);
	printf("%02x %02x: madvise over a hole %d %s, left %02x %02x\n", r[0], r[1], rv,
	       strerror(errno), m[0], m[2 * ps]);
	/* Two pages, the second locked. */
	unsigned char *l = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	l[0] = r[2], l[ps] = r[3];
	if (mlock(l + ps, ps) == 0) {
		errno = 0;
		rv = madvise(l, 2 * ps, MADV_DONTNEED);
		printf("%02x %02x: madvise over a locked page %d %s, left %02x %02x\n", r[2], r[3],
		       rv, strerror(errno), l[0], l[ps]);
	} else {
		printf("no mlock: %s\n", strerror(errno));
	}
	/* Read-only page, hole, read-only page: mprotect makes the first
	 * writable before it fails at the hole. */
	unsigned char *p = mmap(NULL, 3 * ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + ps, ps))
		return 4;
	rv = mprotect(p, 3 * ps, PROT_READ | PROT_WRITE);
	printf("mprotect over a hole %d %s\n", rv, strerror(errno));
	p[0] = r[0];	/* writable now: natively no SIGSEGV */
	printf("wrote %02x\n", p[0]);
	return 0;
}
