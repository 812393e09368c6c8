/* util.c: error exits, the content hash, trace location defaults, and
 * allocation that never returns NULL. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *progname = "rewind";

static void vsay(const char *fmt, va_list ap)
{
	char buf[8192];
	int n = snprintf(buf, sizeof buf, "%s: ", progname);
	vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
	strcat(buf, "\n");
	fflush(stdout);
	write_all(2, buf, strlen(buf));
}

void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	exit(status);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

uint64_t hash_update(uint64_t h, const void *p, size_t n)
{
	const uint8_t *s = p;
	const uint64_t k1 = 0x87c37b91114253d5ull, k2 = 0x4cf5ad432745937full;
	uint64_t w;
	while (n >= 8) {
		memcpy(&w, s, 8);
		h = rotl(h ^ (w * k1), 31) * k2;
		s += 8;
		n -= 8;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = rotl(h ^ (w * k1) ^ n, 29) * k2;
	}
	return h;
}

uint64_t hash_word(uint64_t h, uint64_t w)
{
	return rotl(h ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
}

uint64_t hash_final(uint64_t h, uint64_t total)
{
	h ^= total;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

/* Hashing works on whole 8-byte words, so reads must not split a word
 * between two calls: every read but the last is a multiple of 8. */
static int hash_stream(int fd, uint64_t *hash, uint64_t *size)
{
	static uint8_t buf[1 << 20];
	uint64_t h = HASH_INIT, total = 0;
	size_t have = 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof buf - have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		have += n;
		total += n;
		if (n == 0 || have == sizeof buf) {
			h = hash_update(h, buf, have);
			have = 0;
			if (n == 0)
				break;
		}
	}
	*hash = hash_final(h, total);
	*size = total;
	return 0;
}

/* A file of more than HASH_PIECES_MIN bytes, by pieces: each piece's own
 * hash is one word of the file's. Only the data is read: a piece in a
 * hole (a sparse file, a memfd of terabytes) costs nothing, its hash
 * that of zeros. */
static int hash_pieces(int fd, uint64_t len, uint64_t *hash, uint64_t *size)
{
	static uint8_t buf[HASH_PIECE];
	static uint64_t zero_hash;
	if (!zero_hash) {
		memset(buf, 0, sizeof buf);
		zero_hash = hash_final(hash_update(HASH_INIT, buf, HASH_PIECE), HASH_PIECE);
	}
	uint64_t h = HASH_INIT, total = 0;
	off_t data = 0;	/* the data at or after the piece starts here */
	int none = 0;	/* no data after */
	for (uint64_t at = 0; at < len; at += HASH_PIECE) {
		uint64_t n = len - at < HASH_PIECE ? len - at : HASH_PIECE, ph = zero_hash;
		if (!none && (uint64_t)data < at) {
			data = lseek(fd, at, SEEK_DATA);
			if (data < 0 && errno == ENXIO)
				none = 1;
			else if (data < 0)
				data = at;	/* cannot tell: read it */
		}
		if (n < HASH_PIECE || (!none && (uint64_t)data < at + n)) {
			ssize_t k = pread(fd, buf, n, at);
			if (k < 0)
				return -1;
			ph = hash_final(hash_update(HASH_INIT, buf, k), k);
			if ((uint64_t)k < n) {	/* shorter than it was */
				total += k;
				h = hash_word(h, ph);
				break;
			}
		}
		total += n;
		h = hash_word(h, ph);
	}
	*hash = hash_final(h, total);
	*size = total;
	return 0;
}

int hash_fd(int fd, uint64_t *hash, uint64_t *size)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > HASH_PIECES_MIN)
		return hash_pieces(fd, st.st_size, hash, size);
	return hash_stream(fd, hash, size);
}

int hash_file(const char *path, uint64_t *hash, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = hash_fd(fd, hash, size), e = errno;
	close(fd);
	errno = e;
	return rc;
}

uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;
	syscall(SYS_clock_gettime, c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

double mono_s(void)
{
	return clock_ns(CLOCK_MONOTONIC) / 1e9;
}

const char *trace_home(void)
{
	static char buf[4096];
	const char *d = getenv("REWIND_DIR");
	if (d && *d)
		snprintf(buf, sizeof buf, "%s", d);
	else
		snprintf(buf, sizeof buf, "%s/.local/share/rewind",
			 getenv("HOME") ? getenv("HOME") : "/tmp");
	return buf;
}

const char *trace_pick(const char *arg)
{
	static char buf[4200];
	if (arg) {
		snprintf(buf, sizeof buf, "%s", arg);
		return buf;
	}
	snprintf(buf, sizeof buf, "%s/latest-trace", trace_home());
	/* Say what is missing in words: a newcomer's first replay, or one
	 * after the traces were deleted, meets this. */
	struct stat st;
	char to[4096];
	ssize_t n;
	if (lstat(buf, &st) < 0 && errno == ENOENT)
		die(EXIT_TRACE, "no trace named and none recorded in %s (it has no latest-trace): "
		    "record one with rec, or name a trace directory", trace_home());
	if (stat(buf, &st) < 0 && errno == ENOENT && (n = readlink(buf, to, sizeof to - 1)) > 0) {
		to[n] = 0;
		die(EXIT_TRACE, "%s points to %s, which is gone: name a trace directory", buf, to);
	}
	return buf;
}

int env_flag(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0");
}

long long parse_num(const char *s)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	return v;
}

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die(EXIT_TRACE, "out of memory (%zu bytes)", n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_TRACE, "out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void cpu_desc(char *buf, size_t len)
{
	char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "re");
	buf[0] = 0;
	while (f && fgets(line, sizeof line, f)) {
		if (line[0] == '\n')
			break;	/* the first CPU is enough */
		if (!strncmp(line, "vendor_id", 9) || !strncmp(line, "model name", 10) ||
		    !strncmp(line, "flags", 5))
			strncat(buf, strchr(line, ':') ? strchr(line, ':') + 2 : line,
				len - strlen(buf) - 1);
	}
	if (f)
		fclose(f);
}

static char intr_dir[4400];	/* see exit_on_sigint() */

/* Only async-signal-safe calls: the files of intr_dir (no
 * subdirectories), then intr_dir itself, go; then so do we. */
static void on_sigint(int sig)
{
	(void)sig;
	int fd = intr_dir[0] ? open(intr_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	char buf[4096];
	long n;
	while (fd >= 0 && (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			const char *name = buf + off + 19;
			if (strcmp(name, ".") && strcmp(name, ".."))
				unlinkat(fd, name, 0);
			off += reclen;
		}
	}
	if (fd >= 0) {
		close(fd);
		rmdir(intr_dir);
	}
	_exit(130);
}

void exit_on_sigint(const char *tmpdir)
{
	snprintf(intr_dir, sizeof intr_dir, "%s", tmpdir ? tmpdir : "");
	struct sigaction sa = { .sa_handler = on_sigint };
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

void usage_exit(int status, const char *usage_line, const char *help)
{
	if (status)
		fputs(usage_line, stderr);
	else
		printf("%s\n%s", usage_line, help);
	exit(status);
}
