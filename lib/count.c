/* count.c: counts taken backward jumps and indirect jumps with patched
 * code (see count.h): finds them with Zydis, builds their trampolines in
 * pages injected near the code, and keeps each thread's slot. */
#include "count.h"
#include "bufabi.h"
#include "codescan.h"
#include "inject.h"
#include "maps.h"
#include "tsc.h"
#include "util.h"

#include <Zydis/Zydis.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define SAVE (COUNT_DATA + 8)	/* rax while the flags are in it */
#define MAXMOVE 4		/* instructions moved with a short edge */
#define MAXTRAMP 160		/* bytes of one trampoline, at most */
#define REACH 0x7ff00000ll	/* what a rel32 reaches, with room to spare */

struct csite {
	uint64_t at;		/* first patched byte (first moved instruction) */
	uint64_t tramp;		/* its trampoline */
	uint16_t tlen;		/* the trampoline's length */
	uint16_t zero;		/* offset of the count trap's int3 in it */
	uint8_t len;		/* bytes patched */
	uint8_t live;		/* the flags are saved around the count */
	uint8_t orig[31];	/* what they were */
};

struct cthread {
	uint32_t tid;
	uint64_t slot;		/* its slot value while another holds the slot */
};

/* Where a run of sites is: the code they patch and their trampolines.
 * Only a filter for the calls that unmap or map over memory: every
 * site is inside a region (a dropped site may leave its region behind),
 * so a range that touches no region touches no site. */
struct cregion {
	uint64_t lo, hi;	/* code */
	uint64_t tlo, thi;	/* trampolines */
};

/* One process (its id as recorded). */
struct cproc {
	uint32_t key;
	int ok;			/* its data page is mapped */
	uint32_t owner;		/* the thread whose value the slot holds (0: none) */
	struct csite *s;
	int n, cap;
	struct cregion *r;
	int nr;
	struct cthread *t;
	int nt;
	uint64_t (*seen)[2];	/* the executable mappings patch_mapping() saw */
	int nseen;
	int traced;		/* a tracer in the tree traces it (count_traced):
				   its code is not patched, nor what it execs,
				   so that its tracer sees the program's own */
};

static int on = -1;
static struct cproc *procs;
static int nprocs;
static long npatched, nuncounted;
static ZydisDecoder dec, fast;	/* fast: minimal mode, for the sweep */

int count_choose(int recorded)
{
	if (recorded > 0 && recorded != COUNT_VERSION)
		die(EXIT_TRACE, "the trace was counted by code patched another way (patcher %d; this "
		    "rewind's is %d): record the program again", recorded, COUNT_VERSION);
	if (recorded >= 0)
		on = recorded != 0;
	else
		on = getenv("REWIND_COUNT") && !strcmp(getenv("REWIND_COUNT"), "1") &&
		     !(getenv("REWIND_NO_COUNT") && !strcmp(getenv("REWIND_NO_COUNT"), "1"));
	if (on && (!ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
		   !ZYAN_SUCCESS(ZydisDecoderInit(&fast, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
		   !ZYAN_SUCCESS(ZydisDecoderEnableMode(&fast, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE))))
		die(EXIT_TRACE, "cannot set up the x86 decoder (Zydis)");
	return on ? COUNT_VERSION : 0;
}

int count_on(void)
{
	return on > 0;
}

static struct cproc *proc_of(uint32_t key, int make)
{
	for (int i = 0; i < nprocs; i++)
		if (procs[i].key == key)
			return &procs[i];
	if (!make)
		return NULL;
	procs = xrealloc(procs, (nprocs + 1) * sizeof *procs);
	procs[nprocs] = (struct cproc){ .key = key };
	return &procs[nprocs++];
}

static struct cthread *thread_of(struct cproc *c, uint32_t tid)
{
	for (int i = 0; i < c->nt; i++)
		if (c->t[i].tid == tid)
			return &c->t[i];
	c->t = xrealloc(c->t, (c->nt + 1) * sizeof *c->t);
	c->t[c->nt] = (struct cthread){ tid, COUNT_BASE };
	return &c->t[c->nt++];
}

static void push_site(struct cproc *c, const struct csite *s)
{
	if (c->n == c->cap)
		c->s = xrealloc(c->s, (c->cap = c->cap * 2 + 64) * sizeof *c->s);
	c->s[c->n++] = *s;
}

/* c's regions made again from its sites: a new region wherever a
 * site's trampoline does not follow the one before. */
static void regions_make(struct cproc *c)
{
	c->nr = 0;
	for (int i = 0; i < c->n; i++) {
		const struct csite *s = &c->s[i];
		struct cregion *g = c->nr ? &c->r[c->nr - 1] : NULL;
		if (!g || s->tramp != g->thi) {
			c->r = xrealloc(c->r, (c->nr + 1) * sizeof *c->r);
			g = &c->r[c->nr++];
			*g = (struct cregion){ s->at, s->at + s->len, s->tramp, s->tramp };
		}
		if (s->at < g->lo)
			g->lo = s->at;
		if (s->at + s->len > g->hi)
			g->hi = s->at + s->len;
		g->thi = s->tramp + s->tlen;
	}
}

/* Whether [lo, hi) touches a region of c: its code (tramp 0) or its
 * trampolines (tramp 1). */
static int in_regions(const struct cproc *c, uint64_t lo, uint64_t hi, int tramp)
{
	for (int i = 0; i < c->nr; i++)
		if (tramp ? lo < c->r[i].thi && hi > c->r[i].tlo : lo < c->r[i].hi && hi > c->r[i].lo)
			return 1;
	return 0;
}

/* ---- finding the edges ---- */

struct insn {
	uint32_t off;		/* into the mapping */
	uint8_t len;
	uint8_t kind;		/* K_* */
	int64_t target;		/* of a direct branch, as an offset; else -1 */
};

enum { K_PLAIN, K_EDGE_JCC, K_EDGE_JMP, K_EDGE_IND, K_BRANCH, K_ODD };

static int is_branch_cat(int cat)
{
	return cat == ZYDIS_CATEGORY_COND_BR || cat == ZYDIS_CATEGORY_UNCOND_BR ||
	       cat == ZYDIS_CATEGORY_CALL || cat == ZYDIS_CATEGORY_RET ||
	       cat == ZYDIS_CATEGORY_SYSCALL || cat == ZYDIS_CATEGORY_INTERRUPT ||
	       cat == ZYDIS_CATEGORY_SYSTEM;
}

/* What instruction in at offset off is for counting. */
static void classify(const ZydisDecodedInstruction *in, size_t off, struct insn *o)
{
	o->off = off;
	o->len = in->length;
	o->target = -1;
	int cat = in->meta.category, m = in->mnemonic;
	int rel = in->raw.imm[0].is_relative;
	if (rel && (cat == ZYDIS_CATEGORY_COND_BR || cat == ZYDIS_CATEGORY_UNCOND_BR ||
		    cat == ZYDIS_CATEGORY_CALL))
		o->target = (int64_t)off + in->length + in->raw.imm[0].value.s;
	if (m == ZYDIS_MNEMONIC_RDTSC || m == ZYDIS_MNEMONIC_RDTSCP || m == ZYDIS_MNEMONIC_CPUID ||
	    m == ZYDIS_MNEMONIC_XBEGIN || m == ZYDIS_MNEMONIC_XABORT || m == ZYDIS_MNEMONIC_XEND)
		o->kind = K_ODD;
	else if (m == ZYDIS_MNEMONIC_LOOP || m == ZYDIS_MNEMONIC_LOOPE || m == ZYDIS_MNEMONIC_LOOPNE ||
		 m == ZYDIS_MNEMONIC_JRCXZ || m == ZYDIS_MNEMONIC_JECXZ)
		o->kind = K_BRANCH;
	else if (cat == ZYDIS_CATEGORY_COND_BR && rel && o->target <= (int64_t)off)
		o->kind = K_EDGE_JCC;
	else if (cat == ZYDIS_CATEGORY_UNCOND_BR && m == ZYDIS_MNEMONIC_JMP && rel &&
		 o->target <= (int64_t)off)
		o->kind = K_EDGE_JMP;
	else if (cat == ZYDIS_CATEGORY_UNCOND_BR && m == ZYDIS_MNEMONIC_JMP && !rel &&
		 in->raw.imm[0].size == 0 && (in->attributes & ZYDIS_ATTRIB_HAS_MODRM) &&
		 in->operand_width == 64)
		o->kind = K_EDGE_IND;
	else if (is_branch_cat(cat))
		o->kind = K_BRANCH;
	else
		o->kind = K_PLAIN;
}

/* Decode bytes[from, to) linearly, going back to the next function start
 * (anchor) where decoding ran past it, into *ins (appended). */
static void sweep(const uint8_t *bytes, size_t from, size_t to, const struct code *c,
		  struct insn **ins, size_t *n, size_t *cap)
{
	size_t at = from, ai = 0;
	while (ai < c->nanchor && c->anchor[ai] < from)
		ai++;
	ZydisDecodedInstruction in;
	while (at < to) {
		if (ai < c->nanchor && c->anchor[ai] <= at) {
			if (c->anchor[ai] < at) {	/* out of step: start again there */
				at = c->anchor[ai];
				while (*n && (*ins)[*n - 1].off >= at)
					(*n)--;
			}
			ai++;
			continue;
		}
		size_t lim = to - at;
		if (ai < c->nanchor && c->anchor[ai] - at < lim)
			lim = c->anchor[ai] - at + 15 < to - at ? c->anchor[ai] - at + 15 : to - at;
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&fast, NULL, bytes + at, lim, &in))) {
			at++;
			continue;
		}
		if (*n == *cap)
			*ins = xrealloc(*ins, (*cap = *cap * 2 + 4096) * sizeof **ins);
		classify(&in, at, &(*ins)[(*n)++]);
		at += in.length;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Is any of tg[0..nt) (sorted) in (lo, hi)? */
static int target_inside(const int64_t *tg, size_t nt, int64_t lo, int64_t hi)
{
	size_t a = 0, b = nt;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (tg[m] <= lo)
			a = m + 1;
		else
			b = m;
	}
	return a < nt && tg[a] < hi;
}

#define STATUS_FLAGS (ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF | ZYDIS_CPUFLAG_AF | ZYDIS_CPUFLAG_ZF | \
		      ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF)

/* Whether the status flags may be read at offset t before all of them
 * are written, along the straight-line code from there. */
static int flags_live(const uint8_t *bytes, size_t n, int64_t t)
{
	uint32_t written = 0;
	ZydisDecodedInstruction in;
	for (int i = 0; i < 32 && t >= 0 && (size_t)t < n; i++) {
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, bytes + t, n - t, &in)))
			return 1;
		if (!in.cpu_flags)
			return 1;
		if (in.cpu_flags->tested & STATUS_FLAGS & ~written)
			return 1;
		written |= (in.cpu_flags->modified | in.cpu_flags->set_0 | in.cpu_flags->set_1 |
			    in.cpu_flags->undefined) & STATUS_FLAGS;
		if ((written & STATUS_FLAGS) == STATUS_FLAGS)
			return 0;
		if (is_branch_cat(in.meta.category))
			return 1;
		t += in.length;
	}
	return 1;
}

/* A direct jcc or jmp at b (len bytes, branch hints allowed): its
 * condition (0-15) for a jcc, 16 for a jmp, -1 for anything else; *rel
 * its displacement. */
static int direct_jump(const uint8_t *b, int len, int64_t *rel)
{
	int k = 0, cc;
	while (k < len && (b[k] == 0x2e || b[k] == 0x3e || b[k] == 0xf2))	/* hints, bnd */
		k++;
	if (k + 2 == len && b[k] >= 0x70 && b[k] <= 0x7f) {
		cc = b[k] & 15;
		*rel = (int8_t)b[k + 1];
	} else if (k + 2 == len && b[k] == 0xeb) {
		cc = 16;
		*rel = (int8_t)b[k + 1];
	} else if (k + 6 == len && b[k] == 0x0f && (b[k + 1] & 0xf0) == 0x80) {
		int32_t d;
		memcpy(&d, b + k + 2, 4);
		cc = b[k + 1] & 15;
		*rel = d;
	} else if (k + 5 == len && b[k] == 0xe9) {
		int32_t d;
		memcpy(&d, b + k + 1, 4);
		cc = 16;
		*rel = d;
	} else {
		return -1;
	}
	return cc;
}

/* May instruction in (at offset off, decoded in full) move into a
 * trampoline: no branch, nothing odd, no write to memory (a watchpoint
 * would stop inside the trampoline), rip-relative only in memory. */
static int movable(const uint8_t *bytes, size_t n, const struct insn *x)
{
	int64_t rel;
	/* A forward jcc or jmp goes as its rel32 form (a target inside the
	 * moved bytes is refused by the caller). */
	if (x->kind == K_BRANCH)
		return x->target > (int64_t)x->off && direct_jump(bytes + x->off, x->len, &rel) >= 0;
	if (x->kind != K_PLAIN)
		return 0;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, bytes + x->off, n - x->off, &in, op)))
		return 0;
	for (int i = 0; i < in.operand_count; i++)
		if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY && (op[i].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			return 0;
	if (in.mnemonic == ZYDIS_MNEMONIC_PUSH || in.mnemonic == ZYDIS_MNEMONIC_POP ||
	    (in.attributes & ZYDIS_ATTRIB_HAS_LOCK))
		return 0;
	if ((in.attributes & ZYDIS_ATTRIB_IS_RELATIVE) &&
	    !((in.attributes & ZYDIS_ATTRIB_HAS_MODRM) && in.raw.modrm.mod == 0 && in.raw.modrm.rm == 5))
		return 0;
	return 1;
}

/* Copy instruction bytes src (len, at tracee address from) to dst, which
 * will be at tracee address to, fixing a rip-relative displacement.
 * Returns 0, or -1 when it does not reach. */
static int relocate(uint8_t *dst, const uint8_t *src, int len, uint64_t from, uint64_t to)
{
	ZydisDecodedInstruction in;
	memcpy(dst, src, len);
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, src, len, &in)))
		return -1;
	if (!((in.attributes & ZYDIS_ATTRIB_HAS_MODRM) && in.raw.modrm.mod == 0 && in.raw.modrm.rm == 5))
		return 0;
	if (in.raw.disp.size != 32)
		return -1;
	int64_t d = in.raw.disp.value + (int64_t)from - (int64_t)to;
	if (d != (int32_t)d)
		return -1;
	int32_t d32 = d;
	memcpy(dst + in.raw.disp.offset, &d32, 4);
	return 0;
}

static int put_rel32(uint8_t *b, uint64_t next, uint64_t target)
{
	int64_t d = (int64_t)(target - next);
	if (d != (int32_t)d)
		return -1;
	int32_t d32 = d;
	memcpy(b, &d32, 4);
	return 0;
}

static void put_abs(uint8_t *b, uint64_t a)
{
	uint32_t v = a;
	memcpy(b, &v, 4);
}

/* A planned site: its instructions ins[first..last], the last the edge. */
struct plan {
	size_t first, last;
	int live;
};

/* Build the trampoline of plan pl at tracee address ta into t; returns
 * its length (and *zero), or -1. lo: the mapping's tracee address. */
static int build(const uint8_t *bytes, const struct insn *ins, const struct plan *pl, uint64_t lo,
		 uint64_t ta, uint8_t *t, uint16_t *zero)
{
	int k = 0;
	const struct insn *e = &ins[pl->last];
	uint64_t F = lo + e->off + e->len, T = lo + e->target;
	for (size_t i = pl->first; i < pl->last; i++) {
		int64_t rel = 0;
		int cc = ins[i].kind == K_BRANCH ? direct_jump(bytes + ins[i].off, ins[i].len, &rel) : -2;
		uint64_t to = lo + ins[i].off + ins[i].len + rel;
		if (cc == -1) {
			return -1;
		} else if (cc == 16) {	/* jmp rel32 */
			t[k] = 0xe9;
			if (put_rel32(t + k + 1, ta + k + 5, to) < 0)
				return -1;
			k += 5;
		} else if (cc >= 0) {	/* jcc rel32 */
			t[k] = 0x0f;
			t[k + 1] = 0x80 | cc;
			if (put_rel32(t + k + 2, ta + k + 6, to) < 0)
				return -1;
			k += 6;
		} else {
			if (relocate(t + k, bytes + ins[i].off, ins[i].len, lo + ins[i].off + ins[i].len,
				     ta + k + ins[i].len) < 0)
				return -1;
			k += ins[i].len;
		}
	}
	if (e->kind == K_EDGE_JCC) {
		int64_t rel;
		int cc = direct_jump(bytes + e->off, e->len, &rel);
		if (cc < 0 || cc == 16)
			return -1;
		t[k++] = 0x0f;
		t[k++] = 0x80 | (cc ^ 1);
		if (put_rel32(t + k, ta + k + 4, F) < 0)
			return -1;
		k += 4;
	}
	int tail[2] = { 0, 0 };
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0) {
			if (pl->live) {	/* mov [SAVE],rax; seto al; lahf */
				memcpy(t + k, "\x48\x89\x04\x25", 4);
				put_abs(t + k + 4, SAVE);
				memcpy(t + k + 8, "\x0f\x90\xc0\x9f", 4);
				k += 12;
			}
			/* sub qword [COUNT_DATA], 1; jz zero */
			memcpy(t + k, "\x48\x83\x2c\x25", 4);
			put_abs(t + k + 4, COUNT_DATA);
			t[k + 8] = 1;
			k += 9;
			t[k++] = 0x0f;
			t[k++] = 0x84;
			tail[0] = k;
			k += 4;
		}
		if (pl->live) {	/* add al,0x7f; sahf; mov rax,[SAVE] */
			memcpy(t + k, "\x04\x7f\x9e\x48\x8b\x04\x25", 7);
			put_abs(t + k + 7, SAVE);
			k += 11;
		}
		if (pass == 1)
			t[k++] = 0xcc;	/* the count trap */
		if (e->kind == K_EDGE_IND) {
			if (relocate(t + k, bytes + e->off, e->len, F, ta + k + e->len) < 0)
				return -1;
			k += e->len;
		} else {
			t[k] = 0xe9;
			if (put_rel32(t + k + 1, ta + k + 5, T) < 0)
				return -1;
			k += 5;
		}
		if (pass == 0) {
			tail[1] = k;	/* the zero path starts here */
			put_rel32(t + tail[0], ta + tail[0] + 4, ta + k);
		}
	}
	*zero = tail[1] + (pl->live ? 11 : 0);
	return k;
}

/* Choose the places of the mapping's edges: ins[0..n) in order, targets
 * tg (sorted). Fills *pl; returns how many. */
/* Which function (the index of the last known function start at or
 * before off, 0 before the first) offset off is in. */
static size_t func_of(const struct code *c, uint64_t off)
{
	size_t a = 0, b = c->nanchor;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (c->anchor[m] <= off)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

static size_t plan_sites(const uint8_t *bytes, size_t nbytes, const struct insn *ins, size_t n,
			 const int64_t *tg, size_t nt, const struct code *c, struct plan **pl)
{
	/* Instructions are moved only in functions without an indirect
	 * jump: a jump table's or computed goto's targets are unknown, and
	 * one may be a moved instruction (whose bytes the jmp covers); and
	 * in no file with exception landing pads (collect2 hit one). */
	uint8_t *ind = xmalloc(c->nanchor + 1);
	memset(ind, 0, c->nanchor + 1);
	for (size_t i = 0; i < n; i++)
		if (ins[i].kind == K_EDGE_IND)
			ind[func_of(c, ins[i].off)] = 1;
	size_t np = 0, cap = 0;
	int64_t done = 0;	/* bytes below this are taken by a site */
	*pl = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct insn *e = &ins[i];
		if (e->kind != K_EDGE_JCC && e->kind != K_EDGE_JMP && e->kind != K_EDGE_IND)
			continue;
		size_t first = i;
		int len = e->len;
		int ok = 1;
		while (len < 5 && ok) {
			if (first == 0 || i - first >= MAXMOVE ||
			    ins[first - 1].off + ins[first - 1].len != ins[first].off ||
			    !movable(bytes, nbytes, &ins[first - 1])) {
				ok = 0;
				break;
			}
			first--;
			len += ins[first].len;
		}
		int64_t s0 = ins[first].off, end = e->off + e->len;
		/* The edge's own target may be the first moved instruction;
		 * no function may start after it (a function of one jmp
		 * after another's padding: called, it ran into the int3s). */
		if (!ok || s0 < done || len > 31 || target_inside(tg, nt, s0, end) ||
		    (first < i && func_of(c, s0) != func_of(c, end - 1)) ||
		    (first < i && (c->landing || ind[func_of(c, e->off)]))) {
			nuncounted++;
			continue;
		}
		if (np == cap)
			*pl = xrealloc(*pl, (cap = cap * 2 + 256) * sizeof **pl);
		(*pl)[np++] = (struct plan){ first, i,
			e->kind == K_EDGE_IND ? 1 : flags_live(bytes, nbytes, e->target) };
		done = end;
	}
	free(ind);
	return np;
}

/* A free stretch of size bytes within reach of [lo, hi), found the same
 * way in rec and replay from the process's mappings: below the code
 * first, then above it, in 64 KiB steps. Above, HEAPROOM is left free
 * first: a non-PIE executable's brk heap grows up from just above its
 * code. Returns 0 if none. */
#define HEAPROOM 0x40000000ull
static uint64_t find_hole(pid_t pid, uint64_t lo, uint64_t hi, uint64_t size)
{
	uint64_t (*m)[2] = NULL;
	int nm = 0;
	FILE *f = maps_open(pid);
	struct maps_line ml;
	while (f && maps_next(f, &ml)) {
		m = xrealloc(m, (nm + 1) * sizeof *m);
		m[nm][0] = ml.lo;
		m[nm++][1] = ml.hi;
	}
	if (f)
		fclose(f);
	uint64_t found = 0;
	for (int dir = 0; dir < 2 && !found; dir++)
		for (uint64_t step = 1; step < 32768 && !found; step++) {
			/* Nothing below the lowest address a program may map
			 * (the subtraction would wrap, as it did for python3.11
			 * at 0x41f000), nor above the user address space. */
			if (dir == 0 && (lo & ~0xffffull) < step * 0x10000 + size + 0x10000)
				break;
			uint64_t a = dir == 0 ? (lo & ~0xffffull) - step * 0x10000 - size
					      : ((hi + 0xffff) & ~0xffffull) + HEAPROOM + step * 0x10000;
			a &= ~0xffffull;
			if (a + size > 0x7fffffff0000ull)
				break;
			if ((int64_t)(hi - a) > REACH || (int64_t)(a + size - lo) > REACH)
				break;
			int clash = 0;
			for (int i = 0; i < nm && !clash; i++)
				clash = m[i][0] < a + size + 0x10000 && m[i][1] + 0x10000 > a;
			if (!clash)
				found = a;
		}
	free(m);
	return found;
}

/* Map len bytes at a in the stopped process p (MAP_FIXED_NOREPLACE). */
static int map_at(struct pt_proc *p, uint64_t a, uint64_t len, int prot)
{
	struct user_regs_struct r;
	pt_getregs(p, &r);
	uint64_t args[6] = { a, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			     (uint64_t)-1, 0 }, ret = 0;
	if (eng_inject(p, &r, r.rip, SYS_mmap, args, &ret, NULL) < 0 || ret != a)
		return -1;
	return 0;
}

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

/* Bump whenever what the plans of a file's code are changes: sweep(),
 * classify(), movable(), flags_live(), plan_sites(), or this layout.
 * The cache key holds it, and Zydis's version. (COUNT_VERSION, in the
 * trace, changes with it: replay must patch as rec did.) */
#define PLAN_VERSION 3

/* The cache key: a 128-bit hash of everything plans are made from (the
 * mapping's bytes, its code ranges and function starts, the landing
 * pads' presence) and of the planner's and decoder's versions. */
static void plan_key(const struct code *code, const struct codebytes *cb, uint64_t key[2])
{
	uint64_t v[8] = { PLAN_VERSION, ZydisGetVersion(), MAXMOVE, cb->n, code->nr, code->nanchor,
			  code->landing, sizeof(struct insn) };
	uint64_t h = hash_update(HASH_INIT, v, sizeof v);
	h = hash_update(h, code->r, 2 * code->nr * sizeof *code->r);
	h = hash_final(hash_update(h, code->anchor, code->nanchor * sizeof *code->anchor), 0);
	code_hash128(h, cb->bytes, cb->n, key);
}

/* The payload: u64 uncounted, u32 nins, u32 np, then each instruction
 * (u32 off, u8 len, u8 kind, u16 0, u64 target) and each plan (u32
 * first, u32 last, u32 live), little-endian. */
#define INS_BYTES 16
#define PLAN_BYTES 12

static uint8_t *plans_encode(const struct plans *x, size_t *len)
{
	*len = 16 + x->nins * INS_BYTES + x->np * PLAN_BYTES;
	uint8_t *b = xmalloc(*len), *q = b;
	memset(b, 0, *len);
	uint64_t u = x->uncounted;
	uint32_t h[2] = { x->nins, x->np };
	memcpy(q, &u, 8);
	memcpy(q + 8, h, 8);
	q += 16;
	for (size_t i = 0; i < x->nins; i++, q += INS_BYTES) {
		memcpy(q, &x->ins[i].off, 4);
		q[4] = x->ins[i].len;
		q[5] = x->ins[i].kind;
		memcpy(q + 8, &x->ins[i].target, 8);
	}
	for (size_t i = 0; i < x->np; i++, q += PLAN_BYTES) {
		uint32_t w[3] = { x->pl[i].first, x->pl[i].last, x->pl[i].live };
		memcpy(q, w, 12);
	}
	return b;
}

/* The plans a payload holds, if it is whole and makes sense for a
 * mapping of n bytes (checked although the checksum matched: a plan
 * that points outside its code must never be built). 0, or -1. */
static int plans_decode(const uint8_t *b, size_t len, size_t n, struct plans *x)
{
	uint64_t u;
	uint32_t h[2];
	memset(x, 0, sizeof *x);
	if (len < 16)
		return -1;
	memcpy(&u, b, 8);
	memcpy(h, b + 8, 8);
	if (u > n || h[0] > n || h[1] > h[0] ||
	    len != 16 + (size_t)h[0] * INS_BYTES + (size_t)h[1] * PLAN_BYTES)
		return -1;
	x->uncounted = u;
	x->nins = h[0];
	x->np = h[1];
	x->ins = xmalloc(x->nins * sizeof *x->ins + 1);
	x->pl = xmalloc(x->np * sizeof *x->pl + 1);
	const uint8_t *q = b + 16;
	for (size_t i = 0; i < x->nins; i++, q += INS_BYTES) {
		struct insn *in = &x->ins[i];
		memcpy(&in->off, q, 4);
		in->len = q[4];
		in->kind = q[5];
		memcpy(&in->target, q + 8, 8);
		if (!in->len || in->len > 15 || in->off >= n || in->len > n - in->off || in->kind > K_ODD ||
		    in->target < -1 || in->target >= (int64_t)n)
			goto bad;
	}
	for (size_t i = 0; i < x->np; i++, q += PLAN_BYTES) {
		uint32_t w[3];
		memcpy(w, q, 12);
		x->pl[i] = (struct plan){ w[0], w[1], w[2] };
		int k = w[1] < x->nins ? x->ins[w[1]].kind : -1;
		if (w[0] > w[1] || w[1] >= x->nins || w[1] - w[0] > MAXMOVE || w[2] > 1 ||
		    (k != K_EDGE_JCC && k != K_EDGE_JMP && k != K_EDGE_IND) ||
		    (k != K_EDGE_IND && x->ins[w[1]].target < 0))
			goto bad;
	}
	return 0;
bad:
	free(x->ins);
	free(x->pl);
	memset(x, 0, sizeof *x);
	return -1;
}

/* Decode and plan the mapping's code (cb, code) into *x. */
static void plans_make(const struct code *code, const struct codebytes *cb, struct plans *x)
{
	size_t n = 0, cap = 0;
	long unc = nuncounted;
	struct insn *ins = NULL;
	struct plan *pl;
	for (int i = 0; i < code->nr; i++)
		sweep(cb->bytes, code->r[2 * i], code->r[2 * i + 1], code, &ins, &n, &cap);
	int64_t *tg = xmalloc(n * sizeof *tg + 1);
	size_t nt = 0;
	for (size_t i = 0; i < n; i++)
		if (ins[i].target >= 0 && (size_t)ins[i].target < cb->n)
			tg[nt++] = ins[i].target;
	qsort(tg, nt, sizeof *tg, cmp_i64);
	size_t np = plan_sites(cb->bytes, cb->n, ins, n, tg, nt, code, &pl);
	free(tg);
	/* Only the sites' instructions are kept. */
	x->nins = 0;
	for (size_t i = 0; i < np; i++)
		x->nins += pl[i].last - pl[i].first + 1;
	x->ins = xmalloc(x->nins * sizeof *x->ins + 1);
	x->nins = 0;
	for (size_t i = 0; i < np; i++) {
		size_t k = pl[i].last - pl[i].first + 1;
		memcpy(x->ins + x->nins, ins + pl[i].first, k * sizeof *ins);
		pl[i].first = x->nins;
		pl[i].last = x->nins + k - 1;
		x->nins += k;
	}
	free(ins);
	x->pl = pl;
	x->np = np;
	x->uncounted = nuncounted - unc;
	nuncounted = unc;
}

/* REWIND_COUNT_SITES=FILE: each site patched, and what the cache did,
 * appended to FILE as lines (for tests: rec and replay, cold and warm,
 * must patch the same). */
static FILE *sites_log(void)
{
	static FILE *f;
	static int done;
	const char *path = getenv("REWIND_COUNT_SITES");
	if (!done && path && *path)
		f = fopen(path, "ae");
	done = 1;
	return f;
}

/* Plans seen before in this run: every process maps the same loader
 * and libc. Keyed by the file's identity and offset, and the length. */
static struct known {
	uint64_t key;
	size_t n;
	struct plans x;
} known[16];
static int nknown;

/* The plans of the mapping's code (cb, code), owned by the ring above:
 * from it, else from the cache on disk, else made (and put there). */
static const struct plans *plan_cached(const struct code *code, const struct codebytes *cb)
{
	for (int i = 0; i < nknown && i < 16; i++)
		if (known[i].key == cb->key && known[i].n == cb->n) {
			nuncounted += known[i].x.uncounted;
			return &known[i].x;
		}
	struct known *k = &known[nknown++ % 16];
	free(k->x.ins);
	free(k->x.pl);
	k->key = cb->key;
	k->n = cb->n;
	uint64_t key[2];
	plan_key(code, cb, key);
	uint8_t *b;
	size_t len;
	int got = code_cache_get("count", key, PLAN_VERSION, &b, &len);
	if (got == 0) {
		if (plans_decode(b, len, cb->n, &k->x) < 0)
			got = -2;
		free(b);
	}
	if (got != -3 && sites_log())
		fprintf(sites_log(), "cache %016llx%016llx %s\n", (unsigned long long)key[0],
			(unsigned long long)key[1], got == 0 ? "hit" : got == -1 ? "miss" : "damaged");
	if (got < 0) {
		plans_make(code, cb, &k->x);
		b = plans_encode(&k->x, &len);
		code_cache_put("count", key, PLAN_VERSION, b, len);
		free(b);
	}
	nuncounted += k->x.uncounted;
	return &k->x;
}

/* Whether the file is rewind's preloaded library: its rwbuf_init in a
 * string table (the symbol's name), or anywhere in a file whose string
 * tables were not all found. */
static int own_library(const struct code *code, const struct codebytes *cb)
{
	if (code->nstrtab <= 0)
		return memmem(cb->img, cb->size, "rwbuf_init", 11) != NULL;
	for (int i = 0; i < code->nstrtab; i++)
		if (memmem(cb->img + code->strtab[i][0], code->strtab[i][1], "rwbuf_init", 11))
			return 1;
	return 0;
}

/* Count the edges of the file mapping sc of process c. */
static void patch_mapping(struct codescan *sc, void *arg)
{
	struct cproc *c = arg;
	struct code code;
	struct codebytes cb;
	if (c->ok && !sc->shared) {
		c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
		c->seen[c->nseen][0] = sc->lo;
		c->seen[c->nseen++][1] = sc->hi;
	}
	/* rdtsc patched already (tsc.c) is the file's code all the same. */
	sc->unpatch = tsc_unpatch;
	sc->key = c->key;
	if (!c->ok || sc->shared || code_bytes(sc, 1, &code, &cb) < 0)
		return;
	/* Never rewind's own preloaded library (its symbol names it). */
	if (own_library(&code, &cb)) {
		if (sites_log())
			fprintf(sites_log(), "map %u %llx %llx own %s\n", c->key, (unsigned long long)sc->lo,
				(unsigned long long)sc->hi, sc->files[0]);
		code_done(&code, &cb);
		return;
	}
	const struct plans *x = plan_cached(&code, &cb);
	const struct insn *ins = x->ins;
	const struct plan *pl = x->pl;
	size_t np = x->np;
	uint64_t size = (np * MAXTRAMP + 4095) & ~4095ull, ta = 0;
	if (np)
		ta = find_hole(sc->p->pid, sc->lo, sc->hi, size);
	if (np && (!ta || map_at(sc->p, ta, size, PROT_READ | PROT_EXEC) < 0)) {
		nuncounted += np;
		np = 0;
	}
	/* Each trampoline is written whole by build(); only those are. */
	uint8_t *tr = np ? xmalloc(size) : NULL, *cur = NULL;
	uint64_t used = 0, span = 0, lo = 0;
	/* The tracee's bytes, not the file's, are what runs: read once,
	 * patched in a copy, written once. */
	if (np) {
		lo = ins[pl[0].first].off;
		span = ins[pl[np - 1].last].off + ins[pl[np - 1].last].len - lo;
		cur = xmalloc(span);
		if (pt_read(sc->p, sc->lo + lo, cur, span) != (ssize_t)span) {
			nuncounted += np;
			np = 0;
		}
	}
	int any = 0, n0 = c->n;
	for (size_t i = 0; i < np; i++) {
		const struct insn *a = &ins[pl[i].first], *e = &ins[pl[i].last];
		struct csite s = { .at = sc->lo + a->off, .tramp = ta + used,
				   .len = e->off + e->len - a->off, .live = pl[i].live };
		uint8_t *here = cur + (a->off - lo);
		int k = build(cb.bytes, ins, &pl[i], sc->lo, ta + used, tr + used, &s.zero);
		if (k < 0 || memcmp(here, cb.bytes + a->off, s.len)) {
			nuncounted++;
			continue;
		}
		s.tlen = k;
		memcpy(s.orig, here, s.len);
		memset(here, 0xcc, s.len);
		here[0] = 0xe9;
		put_rel32(here + 1, s.at + 5, s.tramp);
		used += k;
		push_site(c, &s);
		npatched++;
		any = 1;
	}
	/* Trampolines first: the code jumps to them once it is written. A
	 * process that cannot be written (it was killed) stays uncounted. */
	if (any && (pt_write(sc->p, ta, tr, used) < 0 || pt_write(sc->p, sc->lo + lo, cur, span) < 0)) {
		nuncounted += c->n - n0;
		npatched -= c->n - n0;
		c->n = n0;
	}
	if (c->n > n0) {
		c->r = xrealloc(c->r, (c->nr + 1) * sizeof *c->r);
		c->r[c->nr++] = (struct cregion){ c->s[n0].at, c->s[c->n - 1].at + c->s[c->n - 1].len,
						  ta, ta + used };
	}
	if (sites_log())
		fprintf(sites_log(), "map %u %llx %llx %d %s\n", c->key, (unsigned long long)sc->lo,
			(unsigned long long)sc->hi, c->n - n0, sc->files[0]);
	for (int i = n0; i < c->n && sites_log(); i++)
		fprintf(sites_log(), "site %u %llx %llx %u %u %u %u\n", c->key,
			(unsigned long long)c->s[i].at, (unsigned long long)c->s[i].tramp, c->s[i].len,
			c->s[i].tlen, c->s[i].zero, c->s[i].live);
	if (sites_log())
		fflush(sites_log());
	free(cur);
	free(tr);
	code_done(&code, &cb);
}

void count_exec(struct pt_proc *p, uint32_t key, uint32_t tid, const char *exe)
{
	if (!count_on())
		return;
	struct cproc *c = proc_of(key, 1);
	c->n = c->nt = c->nr = c->nseen = 0;
	c->owner = 0;
	c->ok = !c->traced && map_at(p, COUNT_DATA, 4096, PROT_READ | PROT_WRITE) == 0;
	if (!c->ok)
		return;
	uint64_t v = COUNT_BASE;
	pt_write(p, COUNT_DATA, &v, 8);
	c->owner = tid;
	thread_of(c, tid)->slot = COUNT_BASE;
	code_each_exec(p, exe, patch_mapping, c);
}

/* [lo, hi) of c was unmapped, mapped over or changed: no longer seen
 * (what is mapped there anew is seen when it is patched). */
static void unsee(struct cproc *c, uint64_t lo, uint64_t hi)
{
	int n = c->nseen;
	for (int i = 0; i < n; i++) {
		uint64_t a = c->seen[i][0], b = c->seen[i][1];
		if (a >= hi || b <= lo)
			continue;
		c->seen[i][1] = a;	/* emptied; the parts outside stay */
		if (a < lo) {
			c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
			c->seen[c->nseen][0] = a;
			c->seen[c->nseen++][1] = lo;
		}
		if (b > hi) {
			c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
			c->seen[c->nseen][0] = hi;
			c->seen[c->nseen++][1] = b;
		}
	}
	int k = 0;
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i][0] < c->seen[i][1])
			memcpy(c->seen[k++], c->seen[i], sizeof c->seen[0]);
	c->nseen = k;
}

static void drop(struct cproc *c, uint64_t lo, uint64_t hi)
{
	if (c)
		unsee(c, lo, hi);
	if (!c || !in_regions(c, lo, hi, 0))
		return;
	for (int i = 0; i < c->n; i++)
		if (c->s[i].at < hi && c->s[i].at + c->s[i].len > lo)
			c->s[i--] = c->s[--c->n];
}

/* Whether [lo, hi) touches the data page or a trampoline of c. */
static int overlaps_ours(const struct cproc *c, uint64_t lo, uint64_t hi)
{
	if (!c->ok)
		return 0;
	if (lo < COUNT_DATA + 4096 && hi > COUNT_DATA)
		return 1;
	if (!in_regions(c, lo, hi, 1))
		return 0;
	for (int i = 0; i < c->n; i++)
		if (lo < c->s[i].tramp + c->s[i].tlen && hi > c->s[i].tramp)
			return 1;
	return 0;
}

/* The program changed rewind's own pages (a MAP_FIXED over them, say):
 * its code gets its own bytes back and is counted no more. */
static void disable(struct pt_proc *p, struct cproc *c)
{
	for (int i = 0; i < c->n; i++)
		pt_write(p, c->s[i].at, c->s[i].orig, c->s[i].len);
	nuncounted += c->n;
	npatched -= c->n;
	c->n = c->nr = 0;
	c->ok = 0;
}

void count_traced(struct pt_proc *p, uint32_t key)
{
	struct cproc *c = on > 0 ? proc_of(key, 1) : NULL;
	if (!c)
		return;
	c->traced = 1;
	if (c->ok)
		disable(p, c);
}

void count_syscall(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret,
		   const char *file)
{
	if (!count_on() || (ret < 0 && ret > -4096))
		return;
	struct cproc *c = proc_of(key, 0);
	if (!c)
		return;
	uint64_t len = (a[1] + 4095) & ~4095ull;
	uint64_t at = nr == SYS_mmap ? (uint64_t)ret : a[0];
	if ((nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mremap || nr == SYS_mprotect) &&
	    overlaps_ours(c, at, at + len)) {
		disable(p, c);
		return;
	}
	switch (nr) {
	case SYS_mmap:
		drop(c, ret, ret + len);
		if ((a[2] & PROT_EXEC) && !(a[3] & MAP_ANONYMOUS) && file &&
		    (a[3] & MAP_SHARED_VALIDATE) == MAP_PRIVATE) {
			struct codescan sc = { p, ret, ret + len, a[5], { file, NULL }, 0, NULL, 0 };
			patch_mapping(&sc, c);
		}
		return;
	case SYS_munmap:
		drop(c, a[0], a[0] + len);
		return;
	case SYS_mremap:
		/* Moved code is no longer counted; its old places are gone. */
		drop(c, a[0], a[0] + len);
		return;
	case SYS_mprotect:	/* code that may be written now: not seen */
		unsee(c, at, at + len);
		return;
	}
}

void count_fork(uint32_t parent, uint32_t child)
{
	if (!count_on())
		return;
	struct cproc *pa = proc_of(parent, 0);
	struct cproc *c = proc_of(child, 1);
	pa = proc_of(parent, 0);	/* procs may have moved */
	c->n = c->nt = c->nr = c->nseen = 0;
	c->owner = 0;
	c->ok = pa && pa->ok;
	if (pa && pa->nseen) {
		c->seen = xrealloc(c->seen, pa->nseen * sizeof *c->seen);
		memcpy(c->seen, pa->seen, pa->nseen * sizeof *c->seen);
		c->nseen = pa->nseen;
	}
	if (pa && pa->n) {
		c->s = xrealloc(c->s, (c->cap = pa->n) * sizeof *c->s);
		memcpy(c->s, pa->s, pa->n * sizeof *c->s);
		c->n = pa->n;
		c->r = xrealloc(c->r, (pa->nr + 1) * sizeof *c->r);
		memcpy(c->r, pa->r, pa->nr * sizeof *c->r);
		c->nr = pa->nr;
	}
}

void count_switch(struct pt_proc *p, uint32_t key, uint32_t tid)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	if (!c || !c->ok || c->owner == tid)
		return;
	uint64_t v;
	if (c->owner && pt_read(p, COUNT_DATA, &v, 8) == 8)
		thread_of(c, c->owner)->slot = v;
	v = thread_of(c, tid)->slot;
	pt_write(p, COUNT_DATA, &v, 8);
	c->owner = tid;
}

int count_get(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t *count)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	uint64_t v;
	if (!c || !c->ok)
		return -1;
	if (c->owner != tid)
		v = thread_of(c, tid)->slot;
	else if (pt_read(p, COUNT_DATA, &v, 8) != 8)
		return -1;
	*count = COUNT_BASE - v;
	return 0;
}

void count_set(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t cnt)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	if (!c || !c->ok)
		return;
	uint64_t v = COUNT_BASE - cnt;
	if (c->owner == tid)
		pt_write(p, COUNT_DATA, &v, 8);
	else
		thread_of(c, tid)->slot = v;
}

int count_arm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want)
{
	uint64_t now;
	count_switch(p, key, tid);
	if (count_get(p, key, tid, &now) < 0 || now > want)
		return -1;
	if (now == want)
		return 0;
	uint64_t v = want - now;
	return pt_write(p, COUNT_DATA, &v, 8) < 0 ? -1 : 1;
}

static const struct csite *site_at(const struct cproc *c, uint64_t rip)
{
	for (int i = 0; c && i < c->n; i++)
		if (rip >= c->s[i].tramp && rip < c->s[i].tramp + c->s[i].tlen)
			return &c->s[i];
	return NULL;
}

/* Wait for p's stop after a step (rec's timer interrupts waits). */
static int step_wait(struct pt_proc *p, int *st)
{
	while (waitpid(p->pid, st, __WALL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* The status flags `sub qword [slot], 1` leaves when the slot held x. */
static uint64_t sub_flags(uint64_t x)
{
	uint64_t r = x - 1, f = 0;
	f |= x == 0 ? 0x001 : 0;				/* CF */
	f |= __builtin_parityll(r & 0xff) ? 0 : 0x004;		/* PF: even */
	f |= ((x ^ 1 ^ r) & 0x10) ? 0x010 : 0;			/* AF */
	f |= r == 0 ? 0x040 : 0;				/* ZF */
	f |= (r >> 63) ? 0x080 : 0;				/* SF */
	f |= x == 1ull << 63 ? 0x800 : 0;			/* OF */
	return f;
}

int count_take_trap(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t want)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	const struct csite *s = site_at(c, rip - 1);
	uint64_t v;
	if (!s || rip - 1 != s->tramp + s->zero || c->owner != tid ||
	    pt_read(p, COUNT_DATA, &v, 8) != 8 || v != 0)
		return 0;
	/* As an unarmed run leaves them: the slot, and the flags of its sub
	 * where the program's were dead (they are part of the state
	 * compared). */
	v = COUNT_BASE - want;
	pt_write(p, COUNT_DATA, &v, 8);
	if (!s->live) {
		struct user_regs_struct r;
		pt_getregs(p, &r);
		r.eflags = (r.eflags & ~0x8d5ull) | sub_flags(v + 1);
		pt_setregs(p, &r);
	}
	return 1;
}

int count_trapped(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t want)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	if (!count_take_trap(p, key, tid, rip, want))
		return 0;
	/* Out through the edge's jump, into the program's code. */
	for (int i = 0; i < 4; i++) {
		struct user_regs_struct r;
		pt_getregs(p, &r);
		if (!site_at(c, r.rip))
			break;
		int st;
		pt_resume(p, RESUME_STEP, 0);
		if (step_wait(p, &st) < 0 || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
			return 0;
	}
	return 1;
}

void count_disarm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	uint64_t left;
	if (c && c->ok && c->owner == tid && pt_read(p, COUNT_DATA, &left, 8) == 8 && left <= want)
		count_set(p, key, tid, want - left);
}

int count_step_out(struct pt_proc *p, uint32_t key, struct user_regs_struct *r, siginfo_t *si,
		   int max)
{
	const struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	int n = 0, stops = 0;
	for (int steps = 0; steps < 256 && stops < 1024 && site_at(c, r->rip); stops++) {
		int st;
		pt_resume(p, RESUME_STEP, 0);
		if (step_wait(p, &st) < 0 || !WIFSTOPPED(st))
			return n;
		/* A signal's delivery-stop comes before the step: the next
		 * step passes over the signal (the caller holds it) and
		 * makes the step. Ending the steps there left the place in
		 * the trampoline, which gdbstub never finds again. */
		if (WSTOPSIG(st) == SIGTRAP) {
			steps++;
		} else {
			siginfo_t x;
			if (ptrace(PTRACE_GETSIGINFO, p->pid, 0, &x) == 0 && n < max)
				si[n++] = x;
		}
		pt_getregs(p, r);
	}
	return n;
}

int count_seen_all(pid_t pid, uint32_t key)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	if (!c || !c->ok)
		return 0;
	FILE *f = maps_open(pid);
	struct maps_line m;
	int exact = f != NULL;
	while (exact && maps_next(f, &m)) {
		/* The syscall buffer's page of `syscall; ret` has no loop. */
		if (m.perm[2] != 'x' || !strcmp(m.name, "[vdso]") || !strcmp(m.name, "[vsyscall]") ||
		    in_regions(c, m.lo, m.hi, 1) || (m.lo >= BUF_ADDR && m.hi <= BUF_ADDR + BUF_SIZE))
			continue;
		int seen = 0;
		for (int i = 0; i < c->nseen && !seen; i++)
			seen = c->seen[i][0] <= m.lo && c->seen[i][1] >= m.hi;
		exact = seen;
	}
	if (f)
		fclose(f);
	return exact;
}

int count_in_tramp(uint32_t key, uint64_t rip)
{
	return on > 0 && site_at(proc_of(key, 0), rip) != NULL;
}

int count_moved(uint32_t key, uint64_t addr)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	for (int i = 0; c && i < c->n; i++)
		if (addr > c->s[i].at && addr < c->s[i].at + c->s[i].len)
			return 1;
	return 0;
}

void count_unpatch(uint32_t key, uint64_t addr, uint8_t *buf, size_t len)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	for (int i = 0; c && i < c->n; i++) {
		const struct csite *s = &c->s[i];
		for (int j = 0; j < s->len; j++)
			if (s->at + j >= addr && s->at + j - addr < len)
				buf[s->at + j - addr] = s->orig[j];
	}
}

/* Export: u32 ok, u32 owner, u32 nsites, u32 nthreads, the sites as
 * struct csite, the threads as struct cthread (same program reads). */
size_t count_export(uint32_t key, uint8_t **buf)
{
	struct cproc *c = on > 0 ? proc_of(key, 0) : NULL;
	uint32_t h[4] = { c && c->ok, c ? c->owner : 0, c ? c->n : 0, c ? c->nt : 0 };
	size_t len = sizeof h + h[2] * sizeof(struct csite) + h[3] * sizeof(struct cthread);
	*buf = xmalloc(len);
	memcpy(*buf, h, sizeof h);
	if (h[2])
		memcpy(*buf + sizeof h, c->s, h[2] * sizeof(struct csite));
	if (h[3])
		memcpy(*buf + sizeof h + h[2] * sizeof(struct csite), c->t, h[3] * sizeof(struct cthread));
	return len;
}

void count_import(uint32_t key, const uint8_t *p, size_t len)
{
	uint32_t h[4];
	if (on <= 0 || len < sizeof h)
		return;
	memcpy(h, p, sizeof h);
	if (len < sizeof h + h[2] * sizeof(struct csite) + h[3] * sizeof(struct cthread))
		return;
	struct cproc *c = proc_of(key, 1);
	c->ok = h[0];
	c->owner = h[1];
	c->n = c->nt = 0;
	const uint8_t *q = p + sizeof h;
	for (uint32_t i = 0; i < h[2]; i++, q += sizeof(struct csite)) {
		struct csite s;
		memcpy(&s, q, sizeof s);
		push_site(c, &s);
	}
	regions_make(c);
	c->t = xrealloc(c->t, (h[3] + 1) * sizeof *c->t);
	memcpy(c->t, q, h[3] * sizeof *c->t);
	c->nt = h[3];
}

void count_stats(long *patched, long *uncounted)
{
	*patched = npatched;
	*uncounted = nuncounted;
}
