/* countsnap.c: counting's state of a process written out for a
 * checkpoint and read back (count_export, count_import in count.h). */
#include "count.h"
#include "countint.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A growing buffer for count_export(). */
struct xbuf {
	uint8_t *p;
	size_t len, cap;
};

static void xput(struct xbuf *b, const void *v, size_t n)
{
	if (b->len + n > b->cap)
		b->p = xrealloc(b->p, b->cap = (b->len + n) * 2 + 256);
	if (n)		/* v may be NULL then (no path) */
		memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void xput_str(struct xbuf *b, const char *s)
{
	uint32_t n = s ? strlen(s) : 0;
	xput(b, &n, 4);
	xput(b, s, n);
}

/* Export: u32 state (1: ok, 2: pending), u32 owner, u32 nsites, u32
 * nthreads, the sites as struct csite, the threads as struct cthread,
 * the path it execed (u32 length, bytes), and while pending what it saw
 * (u32 n, each struct cseen) and their files (u32 n, each u64 id[4] and
 * the path). Only the same program reads it. */
size_t count_export(uint32_t key, uint8_t **buf)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	uint32_t h[4] = { c ? (c->ok ? 1 : 0) | (c->pending ? 2 : 0) : 0, c ? c->owner : 0,
			  c ? c->n : 0, c ? c->nt : 0 };
	struct xbuf b = { 0 };
	xput(&b, h, sizeof h);
	if (h[2])
		xput(&b, c->s, h[2] * sizeof(struct csite));
	if (h[3])
		xput(&b, c->t, h[3] * sizeof(struct cthread));
	xput_str(&b, c ? c->exe : NULL);
	uint32_t ns = c && c->pending ? c->nseen : 0, nf = c && c->pending ? c->nfiles : 0;
	xput(&b, &ns, 4);
	if (ns)
		xput(&b, c->seen, ns * sizeof *c->seen);
	xput(&b, &nf, 4);
	for (uint32_t i = 0; i < nf; i++) {
		xput(&b, c->files[i].id, sizeof c->files[i].id);
		xput_str(&b, c->files[i].path);
	}
	*buf = b.p;
	return b.len;
}

/* From count_export()'s p, len at *at: n bytes to v (NULL: skipped);
 * 0, or -1 past the end. */
static int xget(const uint8_t *p, size_t len, size_t *at, void *v, size_t n)
{
	if (len < *at || len - *at < n)
		return -1;
	if (v)
		memcpy(v, p + *at, n);
	*at += n;
	return 0;
}

static char *xget_str(const uint8_t *p, size_t len, size_t *at)
{
	uint32_t n;
	if (xget(p, len, at, &n, 4) < 0 || len - *at < n || !n) {
		return NULL;
	}
	char *s = xmalloc(n + 1);
	memcpy(s, p + *at, n);
	s[n] = 0;
	*at += n;
	return s;
}

void count_import(uint32_t key, const uint8_t *p, size_t len)
{
	uint32_t h[4];
	size_t at = 0;
	if (!count_on() || xget(p, len, &at, h, sizeof h) < 0)
		return;
	size_t fixed = h[2] * sizeof(struct csite) + h[3] * sizeof(struct cthread);
	if (len - at < fixed)
		return;
	struct cproc *c = cnt_proc(key, 1);
	c->ok = h[0] & 1;
	c->pending = (h[0] & 2) != 0;
	c->owner = h[1];
	c->n = c->nt = c->nseen = 0;
	cnt_files_free(c);
	for (uint32_t i = 0; i < h[2]; i++) {
		struct csite s;
		xget(p, len, &at, &s, sizeof s);
		cnt_push_site(c, &s);
	}
	cnt_regions_make(c);
	c->t = xrealloc(c->t, (h[3] + 1) * sizeof *c->t);
	xget(p, len, &at, c->t, h[3] * sizeof *c->t);
	c->nt = h[3];
	free(c->exe);
	c->exe = xget_str(p, len, &at);
	uint32_t ns = 0, nf = 0;
	if (xget(p, len, &at, &ns, 4) < 0 || len - at < (size_t)ns * sizeof *c->seen)
		ns = 0;
	c->seen = xrealloc(c->seen, (ns + 1) * sizeof *c->seen);
	xget(p, len, &at, c->seen, ns * sizeof *c->seen);
	c->nseen = ns;
	if (xget(p, len, &at, &nf, 4) < 0)
		nf = 0;
	for (uint32_t i = 0; i < nf; i++) {
		uint64_t id[4];
		if (xget(p, len, &at, id, sizeof id) < 0)
			break;
		c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof *c->files);
		c->files[c->nfiles].path = xget_str(p, len, &at);
		memcpy(c->files[c->nfiles].id, id, sizeof id);
		if (!c->files[c->nfiles].path)
			break;
		c->nfiles++;
	}
	for (int i = 0; i < c->nseen; i++)	/* never past what was read */
		if (c->seen[i].file >= c->nfiles)
			c->seen[i].file = -1;
}
