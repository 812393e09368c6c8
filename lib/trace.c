/* trace.c: reads and writes the event stream (DIR/events): a file header,
 * then zstd-compressed chunks of records; see trace.h and rewind-trace(5). */
#include "trace.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	if (v != TRACE_VERSION) {
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
	r->nrec_left = nrec;
	r->off = off + TRACE_CHUNK_HDR + csize;
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

int trace_create(struct trace_writer *w, const char *dir)
{
	char path[4200];
	memset(w, 0, sizeof *w);
	snprintf(path, sizeof path, "%s/events", dir);
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (w->fd < 0)
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
	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	w->cctx = c;
	w->recstart = (size_t)-1;
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

void tw_put(struct trace_writer *w, const void *p, size_t n)
{
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

void tw_end(struct trace_writer *w)
{
	uint32_t size = w->len - w->recstart;
	memcpy(w->buf + w->recstart + 4, &size, 4);
	w->nrec++;
	w->recstart = (size_t)-1;
	if (w->len >= TRACE_CHUNK_TARGET)
		tw_submit(w);
}

/* Compress the n bytes of nrec records at b, the first numbered first,
 * and write them as one chunk (one write, so that a killed recorder
 * leaves whole chunks). */
static int write_chunk(struct trace_writer *w, const uint8_t *b, size_t n, uint32_t nrec,
		       uint64_t first)
{
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
	if (write_all(w->fd, w->cbuf, c + TRACE_CHUNK_HDR) < 0) {
		/* A full disk takes part of a chunk: cut it away, so that the
		 * file ends at its last whole chunk, as after kill -9. */
		w->werr = errno ? errno : EIO;
		if (ftruncate(w->fd, w->good) < 0) {
			/* nothing better to do: readers name the partial chunk */
		}
		errno = w->werr;
		return -1;
	}
	w->good += c + TRACE_CHUNK_HDR;
	return 0;
}

/* The helper thread: while rec goes on with the program (the other core),
 * it compresses and writes the chunk handed over; the cctx and cbuf are
 * its own from its start. */
struct tw_job {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state;		/* 0 idle, 1 a chunk to write, 2 quit */
	int err;		/* errno of the first failed chunk */
	uint8_t *buf;		/* the chunk; then the buffer rec fills next */
	size_t len, cap;
	uint32_t nrec;
	uint64_t first;
};

static void *tw_worker(void *arg)
{
	struct trace_writer *w = arg;
	struct tw_job *j = w->job;
	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (j->state == 0)
			pthread_cond_wait(&j->cv, &j->mu);
		if (j->state == 2)
			break;
		pthread_mutex_unlock(&j->mu);
		int rc = write_chunk(w, j->buf, j->len, j->nrec, j->first);
		int e = errno;
		pthread_mutex_lock(&j->mu);
		if (rc < 0 && !j->err)
			j->err = e ? e : EIO;
		j->state = 0;
		pthread_cond_broadcast(&j->cv);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* Wait until the helper is idle; returns its error, if any, once. */
static int tw_wait(struct tw_job *j)
{
	pthread_mutex_lock(&j->mu);
	while (j->state == 1)
		pthread_cond_wait(&j->cv, &j->mu);
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
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&j->th, NULL, tw_worker, w) != 0) {
		free(j);
		w->job = NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Hand the records done to the helper (or write them now); a record
 * being built stays behind for the next chunk. */
static int tw_submit(struct trace_writer *w)
{
	if (w->nrec == 0)
		return 0;
	size_t open = w->recstart == (size_t)-1 ? 0 : w->len - w->recstart;
	size_t done = w->len - open;
	int rc = 0;
	if (!w->job && !env_flag("REWIND_NO_TRACE_THREAD"))
		tw_start(w);
	if (!w->job) {
		rc = write_chunk(w, w->buf, done, w->nrec, w->first_event);
		memmove(w->buf, w->buf + done, open);
	} else {
		struct tw_job *j = w->job;
		int e = tw_wait(j);
		if (e) {
			errno = e;
			rc = -1;
		}
		/* Swap buffers: the helper takes the chunk, rec the one the
		 * helper wrote last (with the open record copied over). */
		uint8_t *b = j->buf;
		size_t cap = j->cap;
		if (cap < open + TRACE_CHUNK_TARGET) {
			cap = open + TRACE_CHUNK_TARGET * 2;
			b = xrealloc(b, cap);
		}
		memcpy(b, w->buf + done, open);
		pthread_mutex_lock(&j->mu);
		j->buf = w->buf;
		j->cap = w->cap;
		j->len = done;
		j->nrec = w->nrec;
		j->first = w->first_event;
		j->state = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		w->buf = b;
		w->cap = cap;
	}
	w->len = open;
	if (open) {
		w->recstart = 0;
		memcpy(&w->first_event, w->buf + 8, 8);
	}
	w->nrec = 0;
	return rc;
}

int tw_flush(struct trace_writer *w)
{
	int rc = tw_submit(w);
	if (w->job) {
		int e = tw_wait(w->job);
		if (e && rc == 0) {
			errno = e;
			rc = -1;
		}
	}
	return rc;
}

int tw_close(struct trace_writer *w)
{
	int rc = tw_flush(w);
	struct tw_job *j = w->job;
	if (j) {
		pthread_mutex_lock(&j->mu);
		j->state = 2;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		pthread_join(j->th, NULL);
		free(j->buf);
		free(j);
		w->job = NULL;
	}
	if (close(w->fd) < 0)
		rc = -1;
	ZSTD_freeCCtx(w->cctx);
	free(w->buf);
	free(w->cbuf);
	return rc;
}
