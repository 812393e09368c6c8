/* tmutate.c: makes a damaged copy of a trace for fuzzing its readers. It
 * decompresses the events file's chunks, damages the records (chosen from
 * a seed, so a run is repeatable) and wraps them again into valid,
 * checksummed chunks, so that the damage reaches the record parsers.
 *
 *   tmutate SRC DST SEED
 *
 * DST is made with DST/events and a symbolic link to every other entry
 * of SRC. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define FILE_HDR 16
#define CHUNK_HDR 24
#define REC_HDR 24

struct rec {
	uint8_t *p;
	uint32_t len;
};

static struct rec *recs;
static size_t nrecs, caprecs;
static uint64_t rng;

static void fail(const char *what)
{
	fprintf(stderr, "tmutate: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void *xalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		fail("malloc");
	return p;
}

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static uint32_t g32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t g64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static void add(const uint8_t *p, uint32_t len)
{
	if (nrecs == caprecs) {
		caprecs = caprecs ? caprecs * 2 : 256;
		recs = realloc(recs, caprecs * sizeof *recs);
		if (!recs)
			fail("realloc");
	}
	recs[nrecs].p = xalloc(len);
	memcpy(recs[nrecs].p, p, len);
	recs[nrecs++].len = len;
}

/* The fixed part of a record of this kind (lib/trace.c). */
static uint32_t fixed(int kind)
{
	static const uint32_t f[] = { 0, 16, 64, 136, 24, 8, 16, 8, 16 };
	return kind >= 1 && kind <= 8 ? f[kind] : 0;
}

/* Byte offsets of the items' length fields in record r, up to max. */
static int items(const struct rec *r, uint32_t *at, int max)
{
	uint32_t off = REC_HDR + fixed(g32(r->p) & 0xffff);
	int n = 0;
	while (off + 8 <= r->len && n < max) {
		at[n++] = off + 4;
		uint32_t l = g32(r->p + off + 4);
		if (l > r->len - off - 8)
			break;
		off += 8 + l;
	}
	return n;
}

static void set_size(struct rec *r, uint32_t len)
{
	r->len = len;
	memcpy(r->p + 4, &len, 4);
}

static void mutate(void)
{
	if (!nrecs)
		return;
	/* Most damage is near the start, where the first execve and the
	 * records before any thread exists are. */
	size_t i = below(2) ? below(nrecs < 3 ? nrecs : 3) : below(4) ? below(nrecs < 12 ? nrecs : 12)
							  : below(nrecs);
	struct rec *r = &recs[i];
	uint32_t at[64];
	int n;
	static const uint32_t lens[] = { 0, 1, 4, 7, 8, 9, 16, 0xffffffff, 0x7fffffff, 0x80000000 };
	switch (below(12)) {
	case 10:	/* the last byte of an item (a string's NUL) */
	case 11:
		if ((n = items(r, at, 64)) > 0) {
			uint32_t o = at[below(n)], l = g32(r->p + o);
			if (l && l <= r->len - o - 4)
				r->p[o + 4 + l - 1] = below(2) ? 'x' : r->p[o + 4 + l - 1] ^ (1u << below(8));
		}
		break;
	case 0:	/* a bit flip in the payload */
	case 1:
		if (r->len > REC_HDR) {
			uint32_t span = r->len - REC_HDR;
			uint32_t o = REC_HDR + (below(2) ? below(span < 96 ? span : 96) : below(span));
			r->p[o] ^= 1u << below(8);
		}
		break;
	case 2:	/* an item's length */
	case 3:
		if ((n = items(r, at, 64)) > 0) {
			uint32_t *f = (uint32_t *)(r->p + at[below(n)]), v;
			if (below(2))
				v = lens[below(sizeof lens / sizeof *lens)];
			else
				v = *f + (int)below(17) - 8;
			memcpy(f, &v, 4);
		}
		break;
	case 4:	/* cut the record's tail */
		if (r->len > REC_HDR)
			set_size(r, r->len - 1 - below(r->len - REC_HDR < 64 ? r->len - REC_HDR : 64));
		break;
	case 5:	/* drop it */
		free(r->p);
		memmove(r, r + 1, (nrecs - i - 1) * sizeof *r);
		nrecs--;
		break;
	case 6:	/* twice */
		add(r->p, r->len);
		{
			struct rec d = recs[nrecs - 1];
			memmove(&recs[i + 1], &recs[i], (nrecs - 1 - i) * sizeof *r);
			recs[i] = d;
		}
		break;
	case 7:	/* swapped with another */
		{
			size_t j = below(3) ? (i + 1 < nrecs ? i + 1 : 0) : below(nrecs);
			struct rec t = recs[i];
			recs[i] = recs[j];
			recs[j] = t;
		}
		break;
	case 8:	/* another kind */
		{
			uint16_t k = 1 + below(9);
			memcpy(r->p, &k, 2);
		}
		break;
	case 9:	/* flags, tid */
		r->p[below(2) ? 2 : 16 + below(4)] ^= 1u << below(8);
		break;
	}
}

static void write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0)
			fail("write");
		p = (const char *)p + k;
		n -= k;
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: tmutate SRC DST SEED\n");
		return 2;
	}
	const char *src = argv[1], *dst = argv[2];
	rng = strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	for (int i = 0; i < 4; i++)
		rnd();
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/events", src);
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		fail(path);
	uint8_t *f = xalloc(st.st_size);
	if (read(fd, f, st.st_size) != st.st_size)
		fail(path);
	close(fd);
	if (st.st_size < FILE_HDR)
		return errno = EINVAL, fail(path), 2;
	for (off_t off = FILE_HDR; off + CHUNK_HDR <= st.st_size;) {
		uint32_t csize = g32(f + off + 4), rsize = g32(f + off + 8);
		if (csize > st.st_size - off - CHUNK_HDR)
			break;
		uint8_t *raw = xalloc(rsize);
		size_t got = ZSTD_decompress(raw, rsize, f + off + CHUNK_HDR, csize);
		if (ZSTD_isError(got) || got != rsize)
			return errno = EINVAL, fail("chunk"), 2;
		for (uint32_t pos = 0; pos + REC_HDR <= rsize;) {
			uint32_t sz = g32(raw + pos + 4);
			if (sz < REC_HDR || sz > rsize - pos)
				break;
			add(raw + pos, sz);
			pos += sz;
		}
		free(raw);
		off += CHUNK_HDR + csize;
	}
	int nmut = 1 + below(3);
	for (int i = 0; i < nmut; i++)
		mutate();
	/* Number the events again, mostly: the reader refuses a sequence
	 * gap before any record is parsed. */
	if (below(8))
		for (size_t i = 0; i < nrecs; i++) {
			uint64_t ev = i;
			memcpy(recs[i].p + 8, &ev, 8);
		}
	if (mkdir(dst, 0700) < 0)
		fail(dst);
	DIR *d = opendir(src);
	if (!d)
		fail(src);
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, "events") ||
		    !strncmp(de->d_name, "seek", 4))
			continue;
		char from[PATH_MAX], to[PATH_MAX];
		if (!realpath(src, from))
			fail(src);
		size_t l = strlen(from);
		snprintf(from + l, sizeof from - l, "/%s", de->d_name);
		snprintf(to, sizeof to, "%s/%s", dst, de->d_name);
		if (symlink(from, to) < 0)
			fail(to);
	}
	closedir(d);
	snprintf(path, sizeof path, "%s/events", dst);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		fail(path);
	write_all(fd, f, FILE_HDR);
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	size_t per = 1 + below(64);
	for (size_t i = 0; i < nrecs;) {
		size_t n = nrecs - i < per ? nrecs - i : per, len = 0;
		for (size_t k = 0; k < n; k++)
			len += recs[i + k].len;
		uint8_t *raw = xalloc(len);
		len = 0;
		for (size_t k = 0; k < n; k++) {
			memcpy(raw + len, recs[i + k].p, recs[i + k].len);
			len += recs[i + k].len;
		}
		size_t bound = ZSTD_compressBound(len);
		uint8_t *out = xalloc(CHUNK_HDR + bound);
		size_t csz = ZSTD_compress2(c, out + CHUNK_HDR, bound, raw, len);
		if (ZSTD_isError(csz))
			return errno = EIO, fail("compress"), 2;
		uint32_t h[4] = { 0x4b435752u, (uint32_t)csz, (uint32_t)len, (uint32_t)n };
		uint64_t first = g64(recs[i].p + 8);
		memcpy(out, h, 16);
		memcpy(out + 16, &first, 8);
		write_all(fd, out, CHUNK_HDR + csz);
		free(raw);
		free(out);
		i += n;
	}
	/* Now and then the file's end: cut, or followed by garbage. */
	switch (below(16)) {
	case 0: {
		off_t end = lseek(fd, 0, SEEK_END);
		if (end > FILE_HDR && ftruncate(fd, FILE_HDR + below(end - FILE_HDR)) < 0)
			fail("ftruncate");
		break;
	}
	case 1: {
		uint8_t junk[64];
		for (size_t k = 0; k < sizeof junk; k++)
			junk[k] = rnd();
		write_all(fd, junk, 1 + below(sizeof junk));
		break;
	}
	}
	close(fd);
	ZSTD_freeCCtx(c);
	return 0;
}
