/* hugemap.c: huge mappings of which a few pages are used, while a thread
 * spins and main computes (so rec preempts them), then prints a token
 * from getrandom and the pages' checksum. The mode says which mapping:
 *   reserve  1 TiB PROT_NONE|MAP_NORESERVE, ten pages made read-write
 *            with mprotect and written (as JVMs, V8, Go and ASan reserve)
 *   hole     a 64 GiB sparse file, data at its start and end, mapped
 *            private read-write: a hole of 64 GiB, ten pages written
 *   memfd    a 16 GiB memfd mapped shared, ten pages written */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define NPAGES 10

static atomic_int flag;
static int ready[2];	/* the spinner says it runs: main blocks on it, not
			   spins (a sched_yield loop made thousands of events
			   on a slow run, and an index to match) */

static void *spinner(void *arg)
{
	(void)arg;
	if (write(ready[1], "", 1) != 1)
		return NULL;
	while (!atomic_load(&flag))
		;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "reserve";
	size_t len, page = 4096;
	char *p;
	if (!strcmp(mode, "reserve")) {
		len = 1ull << 40;
		p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	} else if (!strcmp(mode, "hole")) {
		len = 64ull << 30;
		int fd = open("hugemap.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, len) < 0 || pwrite(fd, "start", 5, 0) != 5 ||
		    pwrite(fd, "end", 3, len - 3) != 3)
			return perror("hugemap.dat"), 1;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
		close(fd);
	} else if (!strcmp(mode, "memfd")) {
		len = 16ull << 30;
		int fd = memfd_create("hugemap", 0);
		if (fd < 0 || ftruncate(fd, len) < 0)
			return perror("memfd"), 1;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
	} else {
		fprintf(stderr, "usage: hugemap reserve|hole|memfd\n");
		return 2;
	}
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	uint64_t tok = 0;
	if (getrandom(&tok, sizeof tok, 0) != sizeof tok)
		return perror("getrandom"), 1;
	size_t step = len / NPAGES / page * page;
	for (int i = 0; i < NPAGES; i++) {
		char *q = p + i * step;
		if (!strcmp(mode, "reserve") && mprotect(q, page, PROT_READ | PROT_WRITE) < 0)
			return perror("mprotect"), 1;
		memset(q + 64, 0, page - 64);
		snprintf(q, 64, "page %d of %s: %016llx", i, mode, (unsigned long long)tok);
	}
	pthread_t t;
	char c1;
	if (pipe(ready) < 0 || pthread_create(&t, NULL, spinner, NULL))
		return fprintf(stderr, "hugemap: pthread_create failed\n"), 1;
	if (read(ready[0], &c1, 1) != 1)
		return perror("read"), 1;
	/* Compute, writing the pages as it goes: rec preempts between. */
	uint64_t x = tok | 1;
	for (int c = 0; c < 40; c++) {
		for (long k = 0; k < 1000000; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		uint64_t *w = (uint64_t *)(p + (c % NPAGES) * step + 64);
		w[c] = x;
	}
	atomic_store(&flag, 1);
	pthread_join(t, NULL);
	uint64_t sum = 0;
	for (int i = 0; i < NPAGES; i++)
		for (size_t k = 0; k < page; k++)
			sum = sum * 31 + (unsigned char)p[i * step + k];
	if (!strcmp(mode, "hole"))
		printf("file ends: %.5s %.3s\n", p, p + len - 3);
	printf("%s\n%s: %d pages, sum %016llx\n", p + 4 * step, mode, NPAGES, (unsigned long long)sum);
	return 0;
}
