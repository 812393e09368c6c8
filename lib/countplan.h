/* countplan.h: where the counted edges of a mapping's code are and how
 * each is patched: decoded with Zydis, planned (short edges take the
 * whole instructions just before them along), kept in the code cache per
 * code, and each site's trampoline built for a place (count.c patches a
 * process with them). */
#ifndef REWIND_COUNTPLAN_H
#define REWIND_COUNTPLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "codescan.h"

#define MAXTRAMP 224		/* bytes of one trampoline, at most */

struct insn {
	uint32_t off;		/* into the mapping */
	uint8_t len;
	uint8_t kind;		/* K_* (countplan.c) */
	int64_t target;		/* of a direct branch, as an offset; else -1 */
};

/* A planned site: its instructions ins[first..last], the last the edge. */
struct plan {
	size_t first, last;
	int live;		/* the flags are saved around the count */
};

/* What decoding and planning found, kept for the sites alone: the
 * instructions of each planned site (moved ones, then the edge), with
 * pl's indices into them. Whether it was just computed or read from the
 * cache, the trampolines are built from this and nothing else, so rec
 * and replay patch the same with or without the cache. */
struct plans {
	struct insn *ins;
	struct plan *pl;
	size_t nins, np;
	long uncounted;		/* edges found but left out */
};

/* Set up the decoders (once, before the rest): 0, or -1. */
int plan_init(void);

/* The plans of the mapping's code (cb, code), owned here (valid until
 * sixteen other mappings' are asked for): kept from an earlier mapping
 * of the same code in this run, else read from the code cache on disk,
 * else made (and put there). */
const struct plans *plan_cached(const struct code *code, const struct codebytes *cb);

/* The 128-bit key of the plans of the mapping's code (cb, code): a hash
 * of everything they are made from (computed once a run per file). */
void plan_id(const struct code *code, const struct codebytes *cb, uint64_t key[2]);

/* Build the trampoline of plan pl (instructions ins, code bytes as the
 * file has them) at tracee address ta into t; lo is the mapping's tracee
 * address, slot the address (below 2 GiB) of the u64 it counts down,
 * followed by a u64 it may keep rax in. Returns its length (at most
 * MAXTRAMP; *zero: the offset of its count trap's int3), or -1 when it
 * cannot be built there. */
int plan_build(const uint8_t *bytes, const struct insn *ins, const struct plan *pl, uint64_t lo,
	       uint64_t ta, uint64_t slot, uint8_t *t, uint16_t *zero);

/* Write at b the rel32 from next to target: 0, or -1 if out of reach. */
int put_rel32(uint8_t *b, uint64_t next, uint64_t target);

/* REWIND_COUNT_SITES=FILE: each site patched, and what the cache did,
 * appended to FILE as lines (for tests: rec and replay, cold and warm,
 * must patch the same). The open file, or NULL. */
FILE *plan_log(void);

#endif
