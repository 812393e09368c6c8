/* countimg.h: a mapping's patch made whole for one place: each site's
 * place and length and its trampoline, built for the trampolines'
 * address, kept in memory and in the code cache, so a process that maps
 * the same code at the same place is patched without planning or
 * building (count.c applies it). */
#ifndef REWIND_COUNTIMG_H
#define REWIND_COUNTIMG_H

#include <stddef.h>
#include <stdint.h>
#include "codescan.h"

/* One site: at the mapping's offset off, len bytes are replaced by a jump
 * to the trampoline at toff (tlen bytes, its count trap's int3 at zero). */
struct img_site {
	uint32_t off, toff;
	uint16_t tlen, zero;
	uint8_t len, live;
	uint16_t pad;
};

struct img {
	uint64_t ta;		/* the trampolines' address: where a hole of */
	uint64_t want;		/* bytes (room for the longest) was found */
	uint64_t size;		/* bytes mapped there (whole pages) */
	uint64_t used;		/* of which trampolines: tr */
	long uncounted;		/* edges the plan left out */
	const struct img_site *s;	/* in address order */
	size_t n;
	const uint8_t *tr;
	void *own[2];		/* what to free: built, s and tr */
	const uint8_t *map;	/* else the cache entry they are in */
	size_t maplen;
};

/* A free place of size bytes for the trampolines (0: none), found the
 * same way in rec and replay. */
typedef uint64_t (*img_hole)(void *arg, uint64_t size);

/* The image of the mapping (code, cb) at tracee address lo, counting
 * down the u64 at slot, with its trampolines where hole() says: the one
 * kept in this run or in the code cache if it was built for that place,
 * else built from the plans (countplan.h) and kept. Owned here (valid
 * until sixteen other images are asked for). One of no sites when hole()
 * finds no place. */
const struct img *img_for(const struct code *code, const struct codebytes *cb, uint64_t lo,
			  uint64_t slot, img_hole hole, void *arg);

#endif
