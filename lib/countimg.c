/* countimg.c: a mapping's patch made whole for one place (see
 * countimg.h): built from the plans once, then kept in this run and in
 * the code cache, checked before use like any cache entry. */
#include "countimg.h"
#include "countplan.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Bump whenever what an image holds or how it is built changes
 * (plan_build() included; the plans' own version is in their key). */
#define IMG_VERSION 2
#define IMG_HDR 56	/* u64 ta, want, size, used, uncounted, n, the mapping's length */

static struct kept {
	uint64_t key[2];
	struct img im;
} kept[16];
static int nkept;

static void img_free(struct img *im)
{
	free(im->own[0]);
	free(im->own[1]);
	if (im->map)
		code_cache_unmap(im->map, im->maplen);
	memset(im, 0, sizeof *im);
}

static uint8_t *img_encode(const struct img *im, size_t n, size_t *len)
{
	*len = IMG_HDR + im->n * sizeof *im->s + im->used;
	uint8_t *b = xmalloc(*len), *q = b;
	uint64_t h[7] = { im->ta, im->want, im->size, im->used, im->uncounted, im->n, n };
	memcpy(q, h, IMG_HDR);
	q += IMG_HDR;
	if (im->n)
		memcpy(q, im->s, im->n * sizeof *im->s);
	q += im->n * sizeof *im->s;
	if (im->used)
		memcpy(q, im->tr, im->used);
	return b;
}

/* The image a cache entry holds, if it is whole and makes sense for a
 * mapping of n bytes (checked although its checksum matched: a site or
 * trampoline out of bounds must never be patched in). 0, or -1. */
static int img_decode(const uint8_t *b, size_t len, size_t n, struct img *im)
{
	uint64_t h[7];
	memset(im, 0, sizeof *im);
	if (len < IMG_HDR)
		return -1;
	memcpy(h, b, IMG_HDR);
	if (h[6] != n || h[5] > n || h[1] > (uint64_t)n * MAXTRAMP + 4096 || h[1] % 4096 ||
	    h[2] != ((h[3] + 4095) & ~4095ull) || h[2] > h[1] || h[4] > n ||
	    len != IMG_HDR + h[5] * sizeof *im->s + h[3] || (h[5] && !h[0]))
		return -1;
	/* The entry is mapped at a page, the sites 8-aligned in it. */
	*im = (struct img){ h[0], h[1], h[2], h[3], (long)h[4], (const struct img_site *)(b + IMG_HDR),
			    h[5], b + IMG_HDR + h[5] * sizeof *im->s, { NULL, NULL }, NULL, 0 };
	uint64_t end = 0, tend = 0;
	for (size_t i = 0; i < im->n; i++) {
		const struct img_site *s = &im->s[i];
		if (s->off < end || s->len < 5 || s->len > 31 || s->off + (uint64_t)s->len > n ||
		    s->toff < tend || s->tlen > MAXTRAMP || s->zero >= s->tlen ||
		    s->toff + (uint64_t)s->tlen > im->used || s->live > 1) {
			memset(im, 0, sizeof *im);
			return -1;
		}
		end = s->off + s->len;
		tend = s->toff + s->tlen;
	}
	return 0;
}

/* Build the image of (code, cb) at lo with its trampolines where hole()
 * puts them (known: hole()'s answer for a size, if asked already, else
 * {0, 0}). 0, or -1 when there is no place. The place is found for room
 * enough for each trampoline's longest, so it does not depend on what is
 * built; only the pages built are mapped (a program's RLIMIT_AS pays for
 * those alone: `ulimit -v 3000; date` failed counted with the room). */
static int img_build(const struct code *code, const struct codebytes *cb, uint64_t lo,
		     uint64_t slot, img_hole hole, void *arg, const uint64_t known[2], struct img *im)
{
	const struct plans *x = plan_cached(code, cb);
	memset(im, 0, sizeof *im);
	im->uncounted = x->uncounted;
	if (!x->np)
		return 0;
	im->want = (x->np * MAXTRAMP + 4095) & ~4095ull;
	im->ta = known[0] == im->want ? known[1] : hole(arg, im->want);
	if (!im->ta)
		return -1;
	struct img_site *sites = im->own[0] = xmalloc(x->np * sizeof *im->s);
	uint8_t *tr = im->own[1] = xmalloc(im->want);
	im->s = sites;
	im->tr = tr;
	for (size_t i = 0; i < x->np; i++) {
		const struct insn *a = &x->ins[x->pl[i].first], *e = &x->ins[x->pl[i].last];
		uint16_t zero = 0;
		int k = plan_build(cb->bytes, x->ins, &x->pl[i], lo, im->ta + im->used, slot,
				   tr + im->used, &zero);
		if (k < 0) {
			im->uncounted++;
			continue;
		}
		sites[im->n++] = (struct img_site){ a->off, im->used, k, zero, e->off + e->len - a->off,
						    x->pl[i].live, 0 };
		im->used += k;
	}
	im->size = (im->used + 4095) & ~4095ull;
	return 0;
}

static void log_image(const uint64_t key[2], const char *how)
{
	if (plan_log())
		fprintf(plan_log(), "image %016llx%016llx %s\n", (unsigned long long)key[0],
			(unsigned long long)key[1], how);
}

const struct img *img_for(const struct code *code, const struct codebytes *cb, uint64_t lo,
			  uint64_t slot, img_hole hole, void *arg)
{
	uint64_t pk[2], key[2];
	plan_id(code, cb, pk);
	uint64_t v[5] = { IMG_VERSION, MAXTRAMP, lo, slot, sizeof(struct img_site) };
	code_hash128(hash_final(hash_update(HASH_INIT, v, sizeof v), sizeof v), pk, sizeof pk, key);
	struct kept *k = NULL;
	for (int i = 0; i < nkept && i < 16 && !k; i++)
		if (!memcmp(kept[i].key, key, sizeof key))
			k = &kept[i];
	const char *how = "kept";
	int have = k != NULL, got = 0;
	if (!k) {
		k = &kept[nkept++ % 16];
		img_free(&k->im);
		memcpy(k->key, key, sizeof key);
		const uint8_t *b;
		size_t len;
		got = code_cache_map("cimg", key, IMG_VERSION, &b, &len);
		if (got == 0 && img_decode(b, len, cb->n, &k->im) < 0) {
			code_cache_unmap(b, len);
			got = -2;
		} else if (got == 0) {
			k->im.map = b;
			k->im.maplen = len;
		}
		have = got == 0;
		how = got == 0 ? "hit" : got == -1 ? "miss" : got == -2 ? "damaged" : "off";
	}
	/* Only if it was built for the place its trampolines get here. */
	uint64_t known[2] = { 0, 0 };
	if (have && k->im.n) {
		known[0] = k->im.want;
		known[1] = hole(arg, k->im.want);
		if (known[1] != k->im.ta) {
			have = 0;
			how = "moved";
		}
	}
	if (!have) {
		img_free(&k->im);
		if (img_build(code, cb, lo, slot, hole, arg, known, &k->im) < 0) {
			/* Nothing of it counted; kept for none. */
			static struct img none;
			none.uncounted = k->im.uncounted + plan_cached(code, cb)->np;
			img_free(&k->im);
			memset(k->key, 0, sizeof k->key);
			log_image(key, "noroom");
			return &none;
		}
		if (got != -3) {
			size_t len;
			uint8_t *b = img_encode(&k->im, cb->n, &len);
			code_cache_put("cimg", key, IMG_VERSION, b, len);
			free(b);
		}
	}
	log_image(key, how);
	return &k->im;
}
