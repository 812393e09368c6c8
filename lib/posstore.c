/* posstore.c: the block contents replay has read from a trace's
 * preemptions, by hash (pos.h): compressed into an unlinked spill file,
 * so replay's memory stays flat however many preemptions it passes. */
#include "pin.h"
#include "pos.h"
#include "tscshare.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

static size_t slot_of(const struct pos_store *s, uint64_t hash)
{
	size_t i = hash & (s->cap - 1);
	while (s->slot[i].used && s->slot[i].hash != hash)
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* The spill file's descriptor, made on first use; -1 when there is none
 * (REWIND_NO_SPILL=1, or no temporary directory that takes one). */
static int spill_fd(struct pos_store *s)
{
	if (s->fd == 0) {
		const char *dir = getenv("TMPDIR");
		int fd = -1;
		if (!env_flag("REWIND_NO_SPILL"))
			fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		s->fd = fd < 0 ? -1 : fd + 1;
	}
	return s->fd > 0 ? s->fd - 1 : -1;
}

/* Compress len bytes at data into cbuf and append them to fd at *end:
 * their place in *off and *clen. 0, or -1 when they cannot be (a full
 * disk: they are kept in memory instead). */
static int pack(ZSTD_CCtx **cc, uint8_t *cbuf, int fd, uint64_t *end, const uint8_t *data,
		uint32_t len, uint64_t *off, uint32_t *clen)
{
	if (len > POS_BLOCK || (!*cc && !(*cc = ZSTD_createCCtx())))
		return -1;
	size_t c = ZSTD_compressCCtx(*cc, cbuf, ZSTD_COMPRESSBOUND(POS_BLOCK), data, len, 1);
	if (ZSTD_isError(c) || pwrite(fd, cbuf, c, *end) != (ssize_t)c)
		return -1;
	*off = *end;
	*clen = c;
	*end += c;
	return 0;
}

/* The helper's queue: blocks in the order added, each in memory (its
 * slot's data) until written and no longer wanted there. */
struct spill_job {
	struct spill_job *next;
	uint64_t hash, gen, off;
	const uint8_t *data;
	uint32_t len, clen;
	int done, failed;
};
#define SPILL_PENDING (8u << 20)	/* replay waits beyond this */
#define SPILL_HOLD (64u << 20)		/* the current record's kept, up to this */
#define SPILL_SPARES 128
struct spiller {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct spill_job *head, *tail, *todo;	/* todo: the helper's next */
	uint64_t pending;	/* bytes queued and not written yet */
	uint64_t held;		/* bytes of every job in the queue */
	int fd, quit;
	uint64_t *end;
	uint8_t *spare[SPILL_SPARES];	/* POS_BLOCK buffers to use again */
	int nspare;
	uint8_t cbuf[ZSTD_COMPRESSBOUND(POS_BLOCK)];
};

static void *spill_worker(void *arg)
{
	struct spiller *sp = arg;
	ZSTD_CCtx *cc = NULL;
	pin_anywhere();
	pthread_mutex_lock(&sp->mu);
	for (;;) {
		while (!sp->todo && !sp->quit)
			pthread_cond_wait(&sp->cv, &sp->mu);
		if (!sp->todo)
			break;
		struct spill_job *j = sp->todo;
		pthread_mutex_unlock(&sp->mu);
		uint64_t off = 0;
		uint32_t clen = 0;
		int failed = pack(&cc, sp->cbuf, sp->fd, sp->end, j->data, j->len, &off, &clen) < 0;
		pthread_mutex_lock(&sp->mu);
		j->off = off;
		j->clen = clen;
		j->failed = failed;
		j->done = 1;
		sp->todo = sp->quit ? NULL : j->next;
		sp->pending -= j->len;
		pthread_cond_broadcast(&sp->cv);
	}
	pthread_mutex_unlock(&sp->mu);
	ZSTD_freeCCtx(cc);
	return NULL;
}

/* The helper of s, started on first use; NULL when replay spills in line
 * (REWIND_NO_SPILL_THREAD=1, or no thread to be had). */
static struct spiller *spiller(struct pos_store *s, int fd)
{
	static int off = -1;
	if (off < 0)
		off = env_flag("REWIND_NO_SPILL_THREAD");
	if (s->sp || off)
		return s->sp;
	struct spiller *sp = xmalloc(sizeof *sp);
	memset(sp, 0, sizeof *sp);
	pthread_mutex_init(&sp->mu, NULL);
	pthread_cond_init(&sp->cv, NULL);
	sp->fd = fd;
	sp->end = &s->end;
	sigset_t all, old;
	sigfillset(&all);	/* replay's handlers interrupt its own waits */
	int shared = tsc_unshare();	/* it runs with every signal blocked */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&sp->th, NULL, spill_worker, sp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tsc_reshare(shared);
	if (rc != 0) {
		free(sp);
		off = 1;
		return NULL;
	}
	return s->sp = sp;
}

/* Let the blocks written out leave memory, but the current record's
 * (up to SPILL_HOLD bytes); with wait, first wait until at most
 * SPILL_PENDING bytes are left to write. */
static void reap(struct pos_store *s, int wait)
{
	struct spiller *sp = s->sp;
	if (!sp)
		return;
	pthread_mutex_lock(&sp->mu);
	while (wait && sp->pending > SPILL_PENDING)
		pthread_cond_wait(&sp->cv, &sp->mu);
	struct spill_job *j;
	while ((j = sp->head) && j->done && (j->gen < s->gen || sp->held > SPILL_HOLD)) {
		struct pos_slot *k = &s->slot[slot_of(s, j->hash)];
		if (!j->failed) {
			if (sp->nspare < SPILL_SPARES)
				sp->spare[sp->nspare++] = k->data;
			else
				free(k->data);
			k->data = NULL;
			k->off = j->off;
			k->clen = j->clen;
		}
		sp->held -= j->len;
		sp->head = j->next;
		if (!sp->head)
			sp->tail = NULL;
		free(j);
	}
	pthread_mutex_unlock(&sp->mu);
}

static void stop_spiller(struct pos_store *s)
{
	struct spiller *sp = s->sp;
	if (!sp)
		return;
	pthread_mutex_lock(&sp->mu);
	sp->quit = 1;
	sp->todo = NULL;	/* what it has not begun stays unwritten */
	pthread_cond_broadcast(&sp->cv);
	pthread_mutex_unlock(&sp->mu);
	pthread_join(sp->th, NULL);
	for (struct spill_job *j = sp->head, *n; j; j = n) {
		n = j->next;
		free(j);
	}
	while (sp->nspare)
		free(sp->spare[--sp->nspare]);
	pthread_mutex_destroy(&sp->mu);
	pthread_cond_destroy(&sp->cv);
	free(sp);
	s->sp = NULL;
}

void pos_store_add(struct pos_store *s, uint64_t hash, const uint8_t *data, uint32_t len)
{
	static uint8_t cbuf[ZSTD_COMPRESSBOUND(POS_BLOCK)];
	static ZSTD_CCtx *cc;
	reap(s, 0);
	if (2 * (s->n + 1) > s->cap) {
		struct pos_store o = *s;
		s->cap = s->cap ? 2 * s->cap : 256;
		s->slot = calloc(s->cap, sizeof *s->slot);
		if (!s->slot)
			die(EXIT_TRACE, "out of memory");
		for (size_t i = 0; i < o.cap; i++)
			if (o.slot[i].used)
				s->slot[slot_of(s, o.slot[i].hash)] = o.slot[i];
		free(o.slot);
	}
	struct pos_slot *k = &s->slot[slot_of(s, hash)];
	if (k->used)
		return;
	*k = (struct pos_slot){ .hash = hash, .len = len, .used = 1 };
	s->n++;
	int fd = len ? spill_fd(s) : -1;
	struct spiller *sp = fd >= 0 && len <= POS_BLOCK ? spiller(s, fd) : NULL;
	if (fd >= 0 && !sp && pack(&cc, cbuf, fd, &s->end, data, len, &k->off, &k->clen) == 0)
		return;
	/* The helper's blocks in buffers used again: the same few pages,
	 * not a new allocation (and a free) for each block. */
	k->data = sp && sp->nspare ? sp->spare[--sp->nspare] : xmalloc(sp ? POS_BLOCK : len ? len : 1);
	memcpy(k->data, data, len);
	if (!sp)
		return;
	struct spill_job *j = xmalloc(sizeof *j);
	*j = (struct spill_job){ .hash = hash, .gen = s->gen, .data = k->data, .len = len };
	pthread_mutex_lock(&sp->mu);
	if (sp->tail)
		sp->tail->next = j;
	else
		sp->head = j;
	sp->tail = j;
	if (!sp->todo)
		sp->todo = j;
	sp->pending += len;
	sp->held += len;
	pthread_cond_broadcast(&sp->cv);
	pthread_mutex_unlock(&sp->mu);
	reap(s, 1);
}

void pos_store_fence(struct pos_store *s)
{
	s->gen++;
	reap(s, 0);
}

void pos_store_free(struct pos_store *s)
{
	stop_spiller(s);
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i].data);
	free(s->slot);
	if (s->fd > 0)
		close(s->fd - 1);
	memset(s, 0, sizeof *s);
}

int pos_store_has(const struct pos_store *s, uint64_t hash)
{
	return s->cap && s->slot[slot_of(s, hash)].used;
}

const uint8_t *pos_store_get(const struct pos_store *s, uint64_t hash, uint32_t *len)
{
	static uint8_t cbuf[ZSTD_COMPRESSBOUND(POS_BLOCK)], out[POS_BLOCK];
	static ZSTD_DCtx *dc;
	if (!s->cap)
		return NULL;
	const struct pos_slot *k = &s->slot[slot_of(s, hash)];
	if (!k->used)
		return NULL;
	*len = k->len;
	if (k->data || !k->len)
		return k->data ? k->data : out;
	if (!dc && !(dc = ZSTD_createDCtx()))
		die(EXIT_TRACE, "zstd: cannot make a decompression context");
	errno = 0;
	if (k->clen > sizeof cbuf || pread(s->fd - 1, cbuf, k->clen, k->off) != (ssize_t)k->clen ||
	    ZSTD_decompressDCtx(dc, out, sizeof out, cbuf, k->clen) != k->len)
		die(EXIT_TRACE, "cannot read back a memory block from replay's spill file: %s",
		    errno ? strerror(errno) : "its bytes changed");
	return out;
}
