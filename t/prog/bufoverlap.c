/* bufoverlap.c: path calls whose output overwrites their own path (stat,
 * lstat, fstatat and readlink, readlinkat into the buffer holding the
 * name, wholly or from a few bytes in), as rec's library makes them
 * without a stop; each result is printed with the time, which differs
 * run to run; then names next to memory that cannot be read. Run in an
 * empty directory: it makes data.tmp and link.tmp. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The calls' arguments alias on purpose. */
#pragma GCC diagnostic ignored "-Wrestrict"

/* Room for a struct stat and a name, aligned for either. */
static union {
	struct stat st;
	char c[512];
} u;

/* Puts name at off in u, returns it. */
static char *put(const char *name, size_t off)
{
	memset(u.c, 'x', sizeof u.c);
	return strcpy(u.c + off, name);
}

static void show(const char *what, long r, const char *extra)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%s: %ld %s (pid %d, ns %ld)\n", what, r, extra, getpid(), ts.tv_nsec);
}

int main(void)
{
	int fd = open("data.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "twelve bytes", 12) != 12 || close(fd) < 0 ||
	    symlink("data.tmp", "link.tmp") < 0)
		return perror("setup"), 1;
	char size[32];
	for (int i = 0; i < 3; i++) {
		/* The struct is written over the name. */
		long r = stat(put("data.tmp", 0), &u.st);
		snprintf(size, sizeof size, "size %lld", r == 0 ? (long long)u.st.st_size : -1ll);
		show("stat", r, size);
		r = lstat(put("link.tmp", 0), &u.st);
		snprintf(size, sizeof size, "link %d", r == 0 && S_ISLNK(u.st.st_mode));
		show("lstat", r, size);
		r = fstatat(AT_FDCWD, put("data.tmp", 0), &u.st, 0);
		snprintf(size, sizeof size, "size %lld", r == 0 ? (long long)u.st.st_size : -1ll);
		show("fstatat", r, size);
		/* A failed one leaves the name as it was. */
		r = stat(put("/nonexistent", 0), &u.st);
		show("stat missing", r, u.c);
		/* The name starts inside the struct. */
		struct stat *st = (struct stat *)u.c;
		r = stat(put("data.tmp", 16), st);
		snprintf(size, sizeof size, "size %lld", r == 0 ? (long long)st->st_size : -1ll);
		show("stat inside", r, size);
		/* The target is read into the name, whole or from byte 3. */
		char *p = put("link.tmp", 0);
		r = readlink(p, p, 64);
		p[r > 0 ? r : 0] = 0;
		show("readlink", r, p);
		p = put("link.tmp", 0);
		r = readlink(p, p + 3, 64);
		p[r > 0 ? r + 3 : 0] = 0;
		show("readlink shifted", r, p);
		p = put("link.tmp", 8);
		r = readlinkat(AT_FDCWD, p, p, 64);
		p[r > 0 ? r : 0] = 0;
		show("readlinkat", r, p);
	}
	/* A name that ends at the last byte before a page that cannot be
	 * read, and one that runs into it (EFAULT). */
	char *m = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + 4096, 4096, PROT_NONE) < 0)
		return perror("mmap"), 1;
	struct stat st;
	long r = stat(strcpy(m + 4096 - 9, "data.tmp"), &st);
	snprintf(size, sizeof size, "size %lld", r == 0 ? (long long)st.st_size : -1ll);
	show("stat at page end", r, size);
	memcpy(m + 4096 - 8, "data.tmp", 8);
	r = stat(m + 4096 - 8, &st);
	show("stat into a hole", r, r < 0 && errno == EFAULT ? "EFAULT" : "?");
	/* The same with the target read over the name. */
	char *p = strcpy(m + 4096 - 9, "link.tmp");
	r = readlink(p, p - 4, 64);
	p[r > 0 ? r - 4 : 0] = 0;
	show("readlink at page end", r, p - 4);
	memcpy(m + 4096 - 8, "link.tmp", 8);
	r = readlink(m + 4096 - 8, m + 4096 - 12, 64);
	show("readlink into a hole", r, r < 0 && errno == EFAULT ? "EFAULT" : "?");
	return 0;
}
