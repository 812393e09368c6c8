/* posstore.c: the block contents replay has read from a trace's
 * preemptions, by hash (pos.h): compressed into an unlinked spill file,
 * so replay's memory stays flat however many preemptions it passes. */
#include "pos.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
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

/* Put the len bytes data of slot k in the spill file; 0, or -1 when they
 * cannot be (a full disk: they are kept in memory instead). */
static int spill(struct pos_store *s, struct pos_slot *k, const uint8_t *data, uint32_t len)
{
	static uint8_t cbuf[ZSTD_COMPRESSBOUND(POS_BLOCK)];
	static ZSTD_CCtx *cc;
	int fd = spill_fd(s);
	if (fd < 0 || len > POS_BLOCK || (!cc && !(cc = ZSTD_createCCtx())))
		return -1;
	size_t c = ZSTD_compressCCtx(cc, cbuf, sizeof cbuf, data, len, 1);
	if (ZSTD_isError(c) || pwrite(fd, cbuf, c, s->end) != (ssize_t)c)
		return -1;
	k->off = s->end;
	k->clen = c;
	s->end += c;
	return 0;
}

void pos_store_add(struct pos_store *s, uint64_t hash, const uint8_t *data, uint32_t len)
{
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
	if (len && spill(s, k, data, len) == 0)
		return;
	k->data = xmalloc(len ? len : 1);
	memcpy(k->data, data, len);
}

void pos_store_free(struct pos_store *s)
{
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
