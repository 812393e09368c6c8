/* trace.c: reads and writes the event stream (DIR/events): a file header,
 * then zstd-compressed chunks of records; see trace.h and rewind-trace(5). */
#include "trace.h"
#include "tscshare.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int fail(struct trace_reader *r, const char *fmt, unsigned long long off, const char *what)
{
	char msg[300];
	snprintf(msg, sizeof msg, fmt, off, what);
	snprintf(r->err, sizeof r->err, "%s: %s", r->path, msg);
	return -1;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		ssize_t k = pread(fd, (char *)buf + done, n - done, off + done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		done += k;
	}
	return 0;
}

static int write_at(int fd, const void *buf, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		ssize_t k = pwrite(fd, (const char *)buf + done, n - done, off + done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = ENOSPC;
			return -1;
		}
		done += k;
	}
	return 0;
}

int trace_open(struct trace_reader *r, const char *dir)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	snprintf(r->path, sizeof r->path, "%s/events", dir);
	struct stat st;
	if (stat(dir, &st) < 0) {
		snprintf(r->err, sizeof r->err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(r->err, sizeof r->err, "%s: not a trace directory", dir);
		return -1;
	}
	/* O_NONBLOCK: a FIFO there must not hang the reader. */
	r->fd = open(r->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (r->fd < 0) {
		char other[4200];
		snprintf(other, sizeof other, "%s/cpu", dir);
		if (errno == ENOENT && access(other, F_OK) < 0)
			snprintf(r->err, sizeof r->err, "%s: not a trace directory (it has no events file)",
				 dir);
		else
			snprintf(r->err, sizeof r->err, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	if (fstat(r->fd, &st) < 0)
		return fail(r, "fstat failed%.0llu%s", 0, "");
	if (!S_ISREG(st.st_mode)) {
		snprintf(r->err, sizeof r->err, "%s: not a regular file", r->path);
		close(r->fd);
		r->fd = -1;
		return -1;
	}
	r->fsize = st.st_size;
	uint8_t h[TRACE_FILE_HDR];
	if (r->fsize < TRACE_FILE_HDR || read_at(r->fd, h, sizeof h, 0) < 0)
		return fail(r, "truncated at offset %llu: no file header%s", r->fsize, "");
	if (memcmp(h, TRACE_FILE_MAGIC, 8) != 0)
		return fail(r, "not a rewind event file (bad magic at offset %llu)%s", 0, "");
	uint32_t v = get32(h + 8);
	if (v != TRACE_VERSION && v != 1) {
		char vs[64];
		snprintf(vs, sizeof vs, "%u", v);
		if (v > TRACE_VERSION)
			snprintf(r->err, sizeof r->err,
				 "%s: trace format version %u is newer than this tool's version %d",
				 r->path, v, TRACE_VERSION);
		else
			snprintf(r->err, sizeof r->err, "%s: unknown trace format version %u", r->path, v);
		return -1;
	}
	r->off = TRACE_FILE_HDR;
	return 0;
}

/* Load the chunk at r->off into r->raw. Returns 1, 0 at a clean end of
 * file, or -1. */
static int load_chunk(struct trace_reader *r)
{
	uint8_t h[TRACE_CHUNK_HDR];
	uint64_t off = r->off;
	if (off == r->fsize)
		return 0;
	if (r->fsize - off < TRACE_CHUNK_HDR || read_at(r->fd, h, sizeof h, off) < 0)
		return fail(r, "truncated chunk header at offset %llu%s", off, "");
	if (get32(h) != TRACE_CHUNK_MAGIC)
		return fail(r, "corrupt chunk at offset %llu: bad magic%s", off, "");
	uint32_t csize = get32(h + 4), rsize = get32(h + 8), nrec = get32(h + 12);
	uint64_t first = get64(h + 16);
	if (rsize > TRACE_CHUNK_MAX || rsize < (uint64_t)nrec * TRACE_REC_HDR)
		return fail(r, "corrupt chunk at offset %llu: bad sizes%s", off, "");
	if (first != r->next_event)
		return fail(r, "corrupt chunk at offset %llu: %s", off, "events out of sequence");
	if (csize > r->fsize - off - TRACE_CHUNK_HDR)
		return fail(r, "truncated chunk at offset %llu%s", off, "");
	if (csize > r->ccap) {
		r->ccap = csize;
		r->cbuf = xrealloc(r->cbuf, csize);
	}
	if (rsize > r->rawcap) {
		r->rawcap = rsize;
		r->raw = xrealloc(r->raw, rsize);
	}
	if (read_at(r->fd, r->cbuf, csize, off + TRACE_CHUNK_HDR) < 0)
		return fail(r, "read failed in chunk at offset %llu%s", off, "");
	unsigned long long fcs = ZSTD_getFrameContentSize(r->cbuf, csize);
	if (fcs != rsize)
		return fail(r, "corrupt chunk at offset %llu: %s", off, "bad zstd frame header");
	size_t got = ZSTD_decompress(r->raw, rsize, r->cbuf, csize);
	if (ZSTD_isError(got))
		return fail(r, "corrupt chunk at offset %llu: %s", off, ZSTD_getErrorName(got));
	if (got != rsize)
		return fail(r, "corrupt chunk at offset %llu: %s", off, "short data");
	/* Check the record framing of the whole chunk now, so that a bad
	 * count or size is caught before any of its records is used. */
	uint32_t n = 0;
	for (size_t pos = 0; pos < rsize; n++) {
		uint32_t sz = rsize - pos >= TRACE_REC_HDR ? get32(r->raw + pos + 4) : 0;
		if (sz < TRACE_REC_HDR || sz > rsize - pos)
			return fail(r, "corrupt chunk at offset %llu: %s", off, "bad record size");
		pos += sz;
	}
	if (n != nrec)
		return fail(r, "corrupt chunk at offset %llu: %s", off, "wrong record count");
	r->rawlen = rsize;
	r->rawpos = 0;
	r->chunk_off = off;
	r->chunk_first = first;
	r->nrec_left = r->chunk_nrec = nrec;
	r->off = r->chunk_end = off + TRACE_CHUNK_HDR + csize;
	return 1;
}

int trace_next(struct trace_reader *r, struct trace_rec *rec)
{
	while (r->nrec_left == 0) {
		if (r->rawpos != r->rawlen)
			return fail(r, "corrupt chunk ending before offset %llu: %s", r->off,
				    "trailing bytes");
		int k = load_chunk(r);
		if (k <= 0)
			return k;
	}
	uint64_t choff = r->off;
	size_t left = r->rawlen - r->rawpos;
	const uint8_t *p = r->raw + r->rawpos;
	if (left < TRACE_REC_HDR)
		return fail(r, "corrupt chunk ending before offset %llu: %s", choff, "short record");
	uint32_t size = get32(p + 4);
	if (size < TRACE_REC_HDR || size > left)
		return fail(r, "corrupt chunk ending before offset %llu: %s", choff, "bad record size");
	rec->kind = get16(p);
	rec->flags = get16(p + 2);
	rec->size = size - TRACE_REC_HDR;
	rec->event = get64(p + 8);
	rec->tid = get32(p + 16);
	rec->p = p + TRACE_REC_HDR;
	if (rec->event != r->next_event)
		return fail(r, "corrupt chunk ending before offset %llu: %s", choff,
			    "events out of sequence");
	size_t fixed = trace_fixed_size(rec->kind);
	if (fixed && rec->size < fixed)
		return fail(r, "corrupt chunk ending before offset %llu: %s", choff, "short record");
	r->next_event++;
	r->rawpos += size;
	r->nrec_left--;
	if (rec->kind == TR_EXIT) {
		r->ended = 1;
		/* The exit is the stream's last record, and its chunk the
		 * file's last: readers that stop at the exit (replay, tseek)
		 * must refuse what follows as tdump and tpack do. */
		if (r->nrec_left == 0 && r->off != r->fsize)
			return fail(r, "garbage after the last chunk at offset %llu%s", r->off, "");
	}
	return 1;
}

void trace_close(struct trace_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->raw);
	free(r->cbuf);
	r->fd = -1;
	r->raw = r->cbuf = NULL;
}

int trace_last_event(struct trace_reader *r, const char *dir, uint64_t *ev)
{
	if (trace_open(r, dir) < 0)
		return -1;
	uint64_t off = r->off, last = 0;
	uint8_t h[TRACE_CHUNK_HDR];
	while (r->fsize - off >= TRACE_CHUNK_HDR && read_at(r->fd, h, sizeof h, off) == 0 &&
	       get32(h) == TRACE_CHUNK_MAGIC && get32(h + 4) <= r->fsize - off - TRACE_CHUNK_HDR &&
	       get32(h + 12) > 0 && get64(h + 16) == (off == TRACE_FILE_HDR ? 0 : last + 1)) {
		last = get64(h + 16) + get32(h + 12) - 1;
		off += TRACE_CHUNK_HDR + get32(h + 4);
	}
	trace_close(r);
	*ev = last;
	return 0;
}

void trace_tell(const struct trace_reader *r, struct trace_pos *pos)
{
	pos->off = r->off;
	pos->chunk_off = r->chunk_off;
	pos->chunk_first = r->chunk_first;
	pos->next_event = r->next_event;
	pos->rawpos = r->rawpos;
	pos->nrec_left = r->nrec_left;
	pos->ended = r->ended;
}

int trace_seek(struct trace_reader *r, const struct trace_pos *pos)
{
	/* The end of a chunk is the start of the next: when that one is
	 * loaded (replay looks one record past a run of buffered calls,
	 * which rec's drains make end where a chunk does), it is not read
	 * and decompressed again, nor the one before. */
	if (pos->nrec_left == 0 && r->chunk_off && pos->chunk_off != r->chunk_off &&
	    pos->off == r->chunk_off) {
		r->off = r->chunk_end;
		r->next_event = pos->next_event;
		r->rawpos = 0;
		r->nrec_left = r->chunk_nrec;
		r->ended = pos->ended;
		return 0;
	}
	if (pos->chunk_off && pos->chunk_off != r->chunk_off) {
		r->off = pos->chunk_off;
		r->next_event = pos->chunk_first;
		if (load_chunk(r) <= 0)
			return -1;
	}
	r->off = pos->off;
	r->next_event = pos->next_event;
	r->rawpos = pos->rawpos;
	r->nrec_left = pos->nrec_left;
	r->ended = pos->ended;
	return 0;
}

size_t trace_fixed_size(int kind)
{
	switch (kind) {
	case TR_START: return 16;
	case TR_SYSCALL: return 8 + 48 + 8;
	case TR_SIGNAL: return 8 + 128;
	case TR_RDTSC: return 24;
	case TR_EXIT: return 8;
	case TR_SYSRET: return 16;
	case TR_TASKEXIT: return 8;
	case TR_PREEMPT: return 16;
	case TR_CPUID: return 32;
	}
	return 0;
}

int trace_item(const struct trace_rec *rec, size_t *off, struct trace_item *it)
{
	if (*off >= rec->size)
		return 0;
	if (rec->size - *off < 8)
		return -1;
	const uint8_t *p = rec->p + *off;
	it->tag = get16(p);
	it->flags = get16(p + 2);
	it->len = get32(p + 4);
	if (it->len > rec->size - *off - 8)
		return -1;
	it->p = p + 8;
	*off += 8 + it->len;
	return 1;
}

int trace_preempt_state(const struct trace_rec *pre, struct trace_item *regs, struct trace_item *xs,
			struct trace_item *hashes)
{
	struct trace_item it;
	size_t off = trace_fixed_size(TR_PREEMPT);
	int k;
	memset(regs, 0, sizeof *regs);
	memset(xs, 0, sizeof *xs);
	memset(hashes, 0, sizeof *hashes);
	if (pre->size < off)
		return -1;
	while ((k = trace_item(pre, &off, &it)) > 0) {
		if (it.tag == IT_REGS)
			*regs = it;
		else if (it.tag == IT_XSTATE)
			*xs = it;
		else if (it.tag == IT_HASHES)
			*hashes = it;
	}
	return k;
}

int trace_preempt_ran(const struct trace_rec *pre)
{
	return pre->kind == TR_PREEMPT && pre->size >= trace_fixed_size(TR_PREEMPT) &&
	       (get64(pre->p + 8) & TRP_RAN);
}

int trace_count(const struct trace_rec *rec, uint64_t *c)
{
	size_t off = trace_fixed_size(rec->kind);
	struct trace_item it;
	if (rec->size < off)
		return -1;
	while (trace_item(rec, &off, &it) > 0)
		if (it.tag == IT_COUNT && it.len >= 8) {
			*c = get64(it.p);
			return 0;
		}
	return -1;
}

uint64_t trace_preempt_rip(const struct trace_rec *pre)
{
	return get64(pre->p);
}

int trace_preempt_point(const struct trace_rec *pre)
{
	return trace_preempt_ran(pre) && (get64(pre->p + 8) & TRP_POINT);
}

int trace_syscall(const struct trace_rec *rec, struct trace_syscall *sc)
{
	if (rec->kind != TR_SYSCALL || rec->size < trace_fixed_size(TR_SYSCALL))
		return -1;
	sc->nr = (int32_t)get32(rec->p);
	for (int i = 0; i < 6; i++)
		sc->args[i] = get64(rec->p + 8 + 8 * i);
	sc->ret = (int64_t)get64(rec->p + 56);
	return 0;
}

/* Writer */

/* A record of this many bytes or more (tw_size) is streamed: compressed in
 * pieces of TRACE_PIECE as it is built, alone in its chunk, the chunk
 * staged in an unlinked file of the trace directory and copied into the
 * events file once whole. */
#define TRACE_STREAM_MIN (4u << 20)
#define TRACE_PIECE (1u << 20)

/* zstd's levels, best first: rec starts at the first and moves along
 * them with the helper's pace (see hand()). On C headers (zstd -b here,
 * MB/s compressed and ratio): 1 290 MB/s 4.8x, -7 390 3.1x, -31 500
 * 1.9x, -100 850 1.3x, -300 1550 1.1x, -1000 3000 1.03x (next to a copy:
 * rec's own path for the bytes is slower). REWIND_TRACE_LEVEL=N fixes it. */
static const int levels[] = { 1, -1, -3, -7, -15, -31, -100, -300, -1000 };
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

/* What the helper (or rec, in line) is to do with the bytes handed over. */
struct tw_task {
	size_t len;
	uint32_t nrec;
	uint64_t first;		/* the event of the first record */
	int piece;		/* 0: a whole chunk; else TW_FIRST and TW_LAST
				   tell where the piece of a streamed chunk is */
	size_t total;		/* a streamed chunk's decompressed size */
	int level;		/* zstd's level for the chunk (at its first piece) */
};
#define TW_PIECE 1
#define TW_FIRST 2
#define TW_LAST 4

static void reserve(struct trace_writer *w, size_t n)
{
	if (w->len + n <= w->cap)
		return;
	size_t cap = w->cap ? w->cap : TRACE_CHUNK_TARGET * 2;
	while (cap < w->len + n)
		cap *= 2;
	w->buf = xrealloc(w->buf, cap);
	w->cap = cap;
}

int trace_level_env(int *level)
{
	const char *fix = getenv("REWIND_TRACE_LEVEL");
	if (!fix || !*fix)
		return 0;
	char *end;
	errno = 0;
	long v = strtol(fix, &end, 10);
	if (errno || *end || v < ZSTD_minCLevel() || v > ZSTD_maxCLevel())
		die(EXIT_USAGE, "REWIND_TRACE_LEVEL=%s: not a zstd level (%d to %d)", fix,
		    ZSTD_minCLevel(), ZSTD_maxCLevel());
	*level = (int)v;
	return 1;
}

int trace_create(struct trace_writer *w, const char *dir)
{
	char path[4200];
	memset(w, 0, sizeof *w);
	snprintf(path, sizeof path, "%s/events", dir);
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return -1;
	w->dir = strdup(dir);
	if (!w->dir)
		return -1;
	uint8_t h[TRACE_FILE_HDR] = { 0 };
	memcpy(h, TRACE_FILE_MAGIC, 8);
	uint32_t v = TRACE_VERSION;
	memcpy(h + 8, &v, 4);
	if (write_all(w->fd, h, sizeof h) < 0)
		return -1;
	w->good = sizeof h;
	ZSTD_CCtx *c = ZSTD_createCCtx();
	if (!c)
		return -1;
	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, levels[0]);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	w->cctx = c;
	w->level = w->clevel = levels[0];
	if (trace_level_env(&w->level))
		w->fixed = 1;
	w->recstart = (size_t)-1;
	w->handed = clock_ns(CLOCK_MONOTONIC);
	return 0;
}

static void tw_put16(struct trace_writer *w, uint16_t v) { tw_put(w, &v, 2); }

void tw_begin(struct trace_writer *w, int kind, int flags, uint64_t event, uint32_t tid)
{
	if (w->nrec == 0)
		w->first_event = event;
	w->recstart = w->len;
	tw_put16(w, kind);
	tw_put16(w, flags);
	tw_put32(w, 0);		/* size, patched by tw_end */
	tw_put64(w, event);
	tw_put32(w, tid);
	tw_put32(w, 0);
}

static void tw_piece(struct trace_writer *w, int last);

/* A record came to another size than tw_size said: a bug of the caller,
 * which would leave a chunk no reader takes. */
static void __attribute__((noreturn)) misdeclared(size_t got, size_t said)
{
	fprintf(stderr, "rewind: a record of %zu bytes was declared %zu\n", got, said);
	abort();
}

void tw_put(struct trace_writer *w, const void *p, size_t n)
{
	/* A streamed record leaves in pieces, never whole. */
	while (w->stotal && w->len + n > TRACE_PIECE) {
		size_t k = w->len < TRACE_PIECE ? TRACE_PIECE - w->len : 0;
		reserve(w, k);
		memcpy(w->buf + w->len, p, k);
		w->len += k;
		p = (const uint8_t *)p + k;
		n -= k;
		tw_piece(w, 0);
	}
	reserve(w, n);
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void tw_put64(struct trace_writer *w, uint64_t v) { tw_put(w, &v, 8); }
void tw_put32(struct trace_writer *w, uint32_t v) { tw_put(w, &v, 4); }

void tw_item(struct trace_writer *w, int tag, int flags, const void *hdr, size_t hlen,
	     const void *data, size_t dlen)
{
	tw_put16(w, tag);
	tw_put16(w, flags);
	tw_put32(w, hlen + dlen);
	if (hlen)
		tw_put(w, hdr, hlen);
	if (dlen)
		tw_put(w, data, dlen);
}

static int tw_submit(struct trace_writer *w);

void tw_size(struct trace_writer *w, size_t size)
{
	w->declared = size;
	if (size < TRACE_STREAM_MIN || w->stotal)
		return;
	uint32_t sz = size;
	memcpy(w->buf + w->recstart + 4, &sz, 4);
	tw_submit(w);	/* the records before it: a chunk of their own */
	w->stotal = size;
	w->sfed = 0;
}

void tw_end(struct trace_writer *w)
{
	if (w->stotal) {
		tw_piece(w, 1);
		w->stotal = 0;
		w->recstart = (size_t)-1;
		w->declared = 0;
		return;
	}
	uint32_t size = w->len - w->recstart;
	if (w->declared && w->declared != size)
		misdeclared(size, w->declared);
	w->declared = 0;
	memcpy(w->buf + w->recstart + 4, &size, 4);
	w->nrec++;
	w->recstart = (size_t)-1;
	if (w->len >= TRACE_CHUNK_TARGET)
		tw_submit(w);
}

uint8_t *tw_raw_begin(struct trace_writer *w, size_t n)
{
	if (w->recstart != (size_t)-1 || w->stotal)
		abort();	/* a record is open: a bug of the caller */
	reserve(w, n);
	return w->buf + w->len;
}

void tw_raw_end(struct trace_writer *w, size_t n, uint32_t nrec, uint64_t first)
{
	if (!nrec)
		return;
	if (w->nrec == 0)
		w->first_event = first;
	w->len += n;
	w->nrec += nrec;
	if (w->len >= TRACE_CHUNK_TARGET)
		tw_submit(w);
}

void tw_cancel(struct trace_writer *w)
{
	if (w->stotal) {
		/* Its pieces went no further than the staging file, which
		 * the next streamed chunk starts over. */
		w->stotal = 0;
		w->len = 0;
	} else if (w->recstart != (size_t)-1) {
		w->len = w->recstart;
	}
	w->recstart = (size_t)-1;
	w->declared = 0;
}

/* The chunk writes failed (errno): cut the events file back to its last
 * whole chunk, as after kill -9, and write no more chunks, as the stream
 * would have a gap. -1. */
static int write_failed(struct trace_writer *w)
{
	w->werr = errno ? errno : EIO;
	if (ftruncate(w->fd, w->good) < 0) {
		/* nothing better to do: readers name the partial chunk */
	}
	errno = w->werr;
	return -1;
}

/* Compress the next frame at level (the helper's cctx). */
static void set_level(struct trace_writer *w, int level)
{
	if (level != w->clevel)
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level);
	w->clevel = level;
}

/* Compress the n bytes of nrec records at b, the first numbered first,
 * at level, and write them as one chunk (one write, so that a killed
 * recorder leaves whole chunks). */
static int write_chunk(struct trace_writer *w, const uint8_t *b, size_t n, uint32_t nrec,
		       uint64_t first, int level)
{
	set_level(w, level);
	size_t bound = ZSTD_compressBound(n) + TRACE_CHUNK_HDR;
	if (bound > w->ccap) {
		w->ccap = bound;
		w->cbuf = xrealloc(w->cbuf, bound);
	}
	size_t c = ZSTD_compress2(w->cctx, w->cbuf + TRACE_CHUNK_HDR, w->ccap - TRACE_CHUNK_HDR, b, n);
	if (ZSTD_isError(c)) {
		errno = EIO;
		return -1;
	}
	uint32_t h[4] = { TRACE_CHUNK_MAGIC, (uint32_t)c, (uint32_t)n, nrec };
	memcpy(w->cbuf, h, 16);
	memcpy(w->cbuf + 16, &first, 8);
	if (w->werr) {	/* after a failed chunk, none: the stream would have a gap */
		errno = w->werr;
		return -1;
	}
	if (write_all(w->fd, w->cbuf, c + TRACE_CHUNK_HDR) < 0)
		return write_failed(w);
	w->good += c + TRACE_CHUNK_HDR;
	return 0;
}

/* The staging file of streamed chunks (made on first use): unlinked, in
 * the trace directory, so that its copy into the events file stays on
 * one filesystem. Its descriptor, or -1. */
static int staging(struct trace_writer *w)
{
	if (!w->sfd) {
		int fd = open(w->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
			char path[4200];
			snprintf(path, sizeof path, "%s/.events.XXXXXX", w->dir);
			fd = mkostemp(path, O_CLOEXEC);
			if (fd >= 0)
				unlink(path);
		}
		if (fd < 0)
			return -1;
		w->sfd = fd + 1;
	}
	return w->sfd - 1;
}

/* Copy n bytes from the start of from to to's offset, in one call where
 * the kernel takes it so (a killed recorder then leaves whole chunks, as
 * with one write). 0 or -1. */
static int copy_whole(int from, int to, size_t n)
{
	loff_t off = 0;
	int plain = 0;	/* copy_file_range refused: sendfile */
	while (off < (loff_t)n) {
		ssize_t k = plain ? sendfile(to, from, &off, n - off)
				  : copy_file_range(from, &off, to, NULL, n - off, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && !plain && off == 0 &&
		    (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP)) {
			plain = 1;
			continue;
		}
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
	}
	return 0;
}

/* Compress the n bytes at b, a piece of a streamed chunk of total bytes
 * holding the one record numbered first, into the staging file, and
 * once the last piece is in, write the chunk. 0 or -1. */
static int stream_piece(struct trace_writer *w, const uint8_t *b, size_t n, int where,
			size_t total, uint64_t first, int level)
{
	ZSTD_CCtx *c = w->cctx;
	int fd = staging(w);
	if (where & TW_FIRST) {
		ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
		set_level(w, level);
		ZSTD_CCtx_setPledgedSrcSize(c, total);
		w->scsize = 0;
		w->serr = fd < 0 || ftruncate(fd, 0) < 0 ? (errno ? errno : EIO) : 0;
	}
	if (w->werr || w->serr) {	/* the chunk is lost: so are the ones after */
		errno = w->werr ? w->werr : w->serr;
		return (where & TW_LAST) && !w->werr ? write_failed(w) : -1;
	}
	size_t ocap = ZSTD_CStreamOutSize();
	if (w->ccap < ocap) {
		w->ccap = ocap;
		w->cbuf = xrealloc(w->cbuf, ocap);
	}
	ZSTD_inBuffer in = { b, n, 0 };
	for (;;) {
		ZSTD_outBuffer out = { w->cbuf, w->ccap, 0 };
		size_t left = ZSTD_compressStream2(c, &out, &in,
						   where & TW_LAST ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			errno = EIO;
		if (ZSTD_isError(left) ||
		    write_at(fd, w->cbuf, out.pos, TRACE_CHUNK_HDR + w->scsize) < 0) {
			w->serr = errno ? errno : EIO;
			errno = w->serr;
			return (where & TW_LAST) ? write_failed(w) : -1;
		}
		w->scsize += out.pos;
		if (where & TW_LAST ? left == 0 : in.pos == in.size)
			break;
	}
	if (!(where & TW_LAST))
		return 0;
	uint8_t h[TRACE_CHUNK_HDR];
	uint32_t h32[4] = { TRACE_CHUNK_MAGIC, (uint32_t)w->scsize, (uint32_t)total, 1 };
	memcpy(h, h32, 16);
	memcpy(h + 16, &first, 8);
	size_t whole = TRACE_CHUNK_HDR + w->scsize;
	if (write_at(fd, h, sizeof h, 0) < 0 || copy_whole(fd, w->fd, whole) < 0)
		return write_failed(w);
	w->good += whole;
	if (ftruncate(fd, 0) < 0) {
		/* its blocks stay taken until the next chunk or the end */
	}
	return 0;
}

static int run_task(struct trace_writer *w, const uint8_t *b, const struct tw_task *t)
{
	if (t->piece)
		return stream_piece(w, b, t->len, t->piece, t->total, t->first, t->level);
	return write_chunk(w, b, t->len, t->nrec, t->first, t->level);
}

/* The helper thread: while rec goes on with the program (the other core),
 * it compresses and writes the chunks and pieces handed over, in order;
 * the cctx, cbuf and staging file are its own from its start. A drain of
 * the syscall buffer hands several chunks at once: TW_SLOTS of them wait
 * in a ring, so rec waits only when the helper is that far behind. */
#define TW_SLOTS 8
struct tw_slot {
	uint8_t *buf;		/* queued: the task's bytes; free: a spare */
	size_t cap;
	struct tw_task task;
};
struct tw_job {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int quit;
	int err;		/* errno of the first failed chunk */
	unsigned head, n;	/* the oldest queued slot, and how many are */
	struct tw_slot q[TW_SLOTS];
	uint64_t busy;		/* the helper's CPU time since rec last took it (ns) */
	int level;		/* rec's latest level, which a queued chunk takes
				   when its turn comes: one handed over before
				   rec found the helper behind goes faster too */
};

static void *tw_worker(void *arg)
{
	struct trace_writer *w = arg;
	struct tw_job *j = w->job;
	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (j->n == 0 && !j->quit)
			pthread_cond_wait(&j->cv, &j->mu);
		if (j->n == 0)
			break;
		struct tw_slot *s = &j->q[j->head];
		if (!w->fixed)
			s->task.level = j->level;
		pthread_mutex_unlock(&j->mu);
		uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		int rc = run_task(w, s->buf, &s->task);
		int e = errno;
		uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		pthread_mutex_lock(&j->mu);
		j->busy += c1 - c0;
		if (rc < 0 && !j->err)
			j->err = e ? e : EIO;
		j->head = (j->head + 1) % TW_SLOTS;
		j->n--;
		pthread_cond_broadcast(&j->cv);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* Wait until at most `most` slots are queued (with j->mu held). */
static void tw_wait_locked(struct tw_job *j, unsigned most)
{
	while (j->n > most)
		pthread_cond_wait(&j->cv, &j->mu);
}

/* Wait until the helper has written everything handed over; returns its
 * error, if any, once. */
static int tw_drain(struct tw_job *j)
{
	pthread_mutex_lock(&j->mu);
	tw_wait_locked(j, 0);
	int e = j->err;
	j->err = 0;
	pthread_mutex_unlock(&j->mu);
	return e;
}

/* Start the helper, with every signal blocked: rec's handlers must
 * interrupt its own waits. Without one, chunks are written in line. */
static void tw_start(struct trace_writer *w)
{
	struct tw_job *j = xmalloc(sizeof *j);
	memset(j, 0, sizeof *j);
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	w->job = j;
	sigset_t all, old;
	sigfillset(&all);
	int shared = tsc_unshare();	/* it runs with every signal blocked */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&j->th, NULL, tw_worker, w) != 0) {
		free(j);
		w->job = NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tsc_reshare(shared);
}

/* Hand the first t->len bytes of w->buf over as task t (to the helper, or
 * do it now); the open bytes after them stay for rec to go on with. */
static int hand(struct trace_writer *w, struct tw_task *t)
{
	size_t open = w->len - t->len;
	int rc = 0;
	if (!w->job && !env_flag("REWIND_NO_TRACE_THREAD"))
		tw_start(w);
	if (!w->job) {
		t->level = w->level;
		rc = run_task(w, w->buf, t);
		memmove(w->buf, w->buf + t->len, open);
	} else {
		struct tw_job *j = w->job;
		uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
		pthread_mutex_lock(&j->mu);
		tw_wait_locked(j, TW_SLOTS - 1);
		/* The free slot after the queued ones: the helper moves head
		 * and n together, so it stays the same one. */
		struct tw_slot *s = &j->q[(j->head + j->n) % TW_SLOTS];
		uint64_t busy = j->busy;
		j->busy = 0;
		int e = j->err;
		j->err = 0;
		pthread_mutex_unlock(&j->mu);
		uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
		/* Over the last chunks (each weighing a quarter less than
		 * the next; the syscall buffer's drains make them in bursts),
		 * rec waited for zstd a quarter of the time or more (the ring
		 * full), or the helper was busy half of it (half a core
		 * beside the program and rec): a faster level for the next
		 * chunks. The helper busy an eighth of it or less: back
		 * towards the best. (A streamed record's level is its first
		 * piece's.) */
		if (!w->fixed && (!t->piece || (t->piece & TW_FIRST))) {
			w->span = w->span - w->span / 4 + (t1 - w->handed);
			w->waits = w->waits - w->waits / 4 + (t1 - t0);
			w->busy = w->busy - w->busy / 4 + busy;
			if (w->waits * 4 >= w->span || w->busy * 2 >= w->span)
				w->step += w->step < NLEVELS - 1;
			else if (w->busy * 8 < w->span)
				w->step -= w->step > 0;
			w->level = levels[w->step];
		}
		w->handed = t1;
		t->level = w->level;
		if (e) {
			errno = e;
			rc = -1;
		}
		/* The task's buffer joins the ring; rec takes the free
		 * slot's spare (with the open bytes copied over). The slot is
		 * rec's alone until it is counted in n. */
		uint8_t *b = s->buf;
		size_t cap = s->cap;
		if (cap < open + TRACE_CHUNK_TARGET) {
			cap = open + TRACE_CHUNK_TARGET * 2;
			b = xrealloc(b, cap);
		}
		memcpy(b, w->buf + t->len, open);
		s->buf = w->buf;
		s->cap = w->cap;
		s->task = *t;
		pthread_mutex_lock(&j->mu);
		j->level = w->level;
		j->n++;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		w->buf = b;
		w->cap = cap;
	}
	w->len = open;
	return rc;
}

/* Hand the records done over as a chunk; a record being built stays
 * behind for the next chunk. */
static int tw_submit(struct trace_writer *w)
{
	if (w->nrec == 0 || w->stotal)
		return 0;
	size_t open = w->recstart == (size_t)-1 ? 0 : w->len - w->recstart;
	struct tw_task t = { .len = w->len - open, .nrec = w->nrec, .first = w->first_event };
	int rc = hand(w, &t);
	if (open) {
		w->recstart = 0;
		memcpy(&w->first_event, w->buf + 8, 8);
	}
	w->nrec = 0;
	return rc;
}

/* Hand the streamed record's bytes so far over as a piece of its chunk
 * (the last: the record is done). */
static void tw_piece(struct trace_writer *w, int last)
{
	struct tw_task t = { .len = w->len, .nrec = 1, .first = w->first_event, .total = w->stotal,
			     .piece = TW_PIECE | (w->sfed ? 0 : TW_FIRST) | (last ? TW_LAST : 0) };
	w->sfed += w->len;
	if (last && w->sfed != w->stotal)
		misdeclared(w->sfed, w->stotal);
	hand(w, &t);
}

int tw_flush(struct trace_writer *w)
{
	int rc = tw_submit(w);
	if (w->job) {
		int e = tw_drain(w->job);
		if (e && rc == 0) {
			errno = e;
			rc = -1;
		}
	}
	if (rc == 0 && w->werr) {	/* a chunk failed before: it still does */
		errno = w->werr;
		rc = -1;
	}
	return rc;
}

int tw_close(struct trace_writer *w)
{
	int rc = tw_flush(w);
	struct tw_job *j = w->job;
	if (j) {
		pthread_mutex_lock(&j->mu);
		j->quit = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		pthread_join(j->th, NULL);
		for (int i = 0; i < TW_SLOTS; i++)
			free(j->q[i].buf);
		free(j);
		w->job = NULL;
	}
	if (close(w->fd) < 0)
		rc = -1;
	if (w->sfd)
		close(w->sfd - 1);
	ZSTD_freeCCtx(w->cctx);
	free(w->buf);
	free(w->cbuf);
	free(w->dir);
	return rc;
}
