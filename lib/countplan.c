/* countplan.c: where a mapping's counted edges are and how each is
 * patched (see countplan.h): decoded with Zydis, planned, kept in the
 * code cache, and each site's trampoline built on demand. */
#include "countplan.h"
#include "util.h"

#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

#define MAXMOVE 4		/* instructions moved with a short edge */

static ZydisDecoder dec, fast;	/* fast: minimal mode, for the sweep */
static long skipped;		/* edges found but left out, while planning */

int plan_init(void)
{
	return ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) &&
	       ZYAN_SUCCESS(ZydisDecoderInit(&fast, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) &&
	       ZYAN_SUCCESS(ZydisDecoderEnableMode(&fast, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE)) ? 0 : -1;
}

enum { K_PLAIN, K_EDGE_JCC, K_EDGE_JMP, K_EDGE_IND, K_BRANCH, K_ODD, K_EDGE_CALL, K_EDGE_ICALL, K_KINDS };

/* Whether kind k is a counted edge: a taken backward jump (jcc, jmp), an
 * indirect jump, a backward direct call (recursion) or an indirect call. */
static int is_edge(int k)
{
	return k == K_EDGE_JCC || k == K_EDGE_JMP || k == K_EDGE_IND || k == K_EDGE_CALL ||
	       k == K_EDGE_ICALL;
}

static int is_branch_cat(int cat)
{
	return cat == ZYDIS_CATEGORY_COND_BR || cat == ZYDIS_CATEGORY_UNCOND_BR ||
	       cat == ZYDIS_CATEGORY_CALL || cat == ZYDIS_CATEGORY_RET ||
	       cat == ZYDIS_CATEGORY_SYSCALL || cat == ZYDIS_CATEGORY_INTERRUPT ||
	       cat == ZYDIS_CATEGORY_SYSTEM;
}

/* Whether the ModRM operand of in is rsp, or memory based on it. */
static int uses_rsp(const ZydisDecodedInstruction *in)
{
	int b = in->raw.rex.B << 3;
	if (in->raw.modrm.mod == 3)
		return (in->raw.modrm.rm | b) == 4;
	return in->raw.modrm.rm == 4 && (in->raw.sib.base | b) == 4;
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
	else if (cat == ZYDIS_CATEGORY_CALL && m == ZYDIS_MNEMONIC_CALL && rel && in->length == 5 &&
		 o->target <= (int64_t)off)
		o->kind = K_EDGE_CALL;
	/* call *op (ff /2): not one whose operand uses rsp, which the
	 * trampoline moves before it jumps through it. */
	else if (cat == ZYDIS_CATEGORY_CALL && m == ZYDIS_MNEMONIC_CALL && !rel &&
		 in->raw.imm[0].size == 0 && (in->attributes & ZYDIS_ATTRIB_HAS_MODRM) &&
		 in->operand_width == 64 && in->raw.modrm.reg == 2 && !uses_rsp(in))
		o->kind = K_EDGE_ICALL;
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

int put_rel32(uint8_t *b, uint64_t next, uint64_t target)
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

/* The edge e itself into t + k (tracee address ta + k): a jmp to T, an
 * indirect jump moved there, or a call made a jump with the return
 * address F put on the stack by hand (rax kept in save meanwhile), so
 * that the callee returns into the program's code, as from the call.
 * Returns the new k, or -1. */
static int put_edge(uint8_t *t, int k, const uint8_t *bytes, const struct insn *e, uint64_t F,
		    uint64_t T, uint64_t ta, uint64_t save)
{
	if (e->kind == K_EDGE_CALL || e->kind == K_EDGE_ICALL) {
		memcpy(t + k, "\x48\x89\x04\x25", 4);	/* mov [save],rax */
		put_abs(t + k + 4, save);
		memcpy(t + k + 8, "\x48\xb8", 2);		/* movabs rax,F */
		memcpy(t + k + 10, &F, 8);
		memcpy(t + k + 18, "\x48\x89\x44\x24\xf8", 5);	/* mov [rsp-8],rax */
		memcpy(t + k + 23, "\x48\x8b\x04\x25", 4);	/* mov rax,[save] */
		put_abs(t + k + 27, save);
		memcpy(t + k + 31, "\x48\x8d\x64\x24\xf8", 5);	/* lea rsp,[rsp-8] */
		k += 36;
	}
	if (e->kind == K_EDGE_IND || e->kind == K_EDGE_ICALL) {
		ZydisDecodedInstruction in;
		if (relocate(t + k, bytes + e->off, e->len, F, ta + k + e->len) < 0 ||
		    !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, bytes + e->off, e->len, &in)))
			return -1;
		if (e->kind == K_EDGE_ICALL)	/* call *op (ff /2) becomes jmp *op (ff /4) */
			t[k + in.raw.modrm.offset] = (t[k + in.raw.modrm.offset] & ~0x38) | 4 << 3;
		return k + e->len;
	}
	t[k] = 0xe9;
	return put_rel32(t + k + 1, ta + k + 5, T) < 0 ? -1 : k + 5;
}

int plan_build(const uint8_t *bytes, const struct insn *ins, const struct plan *pl, uint64_t lo,
	       uint64_t ta, uint64_t slot, uint8_t *t, uint16_t *zero)
{
	uint64_t save = slot + 8;	/* rax while the flags are in it */
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
			if (pl->live) {	/* mov [save],rax; seto al; lahf */
				memcpy(t + k, "\x48\x89\x04\x25", 4);
				put_abs(t + k + 4, save);
				memcpy(t + k + 8, "\x0f\x90\xc0\x9f", 4);
				k += 12;
			}
			/* sub qword [slot], 1; jz zero */
			memcpy(t + k, "\x48\x83\x2c\x25", 4);
			put_abs(t + k + 4, slot);
			t[k + 8] = 1;
			k += 9;
			t[k++] = 0x0f;
			t[k++] = 0x84;
			tail[0] = k;
			k += 4;
		}
		if (pl->live) {	/* add al,0x7f; sahf; mov rax,[save] */
			memcpy(t + k, "\x04\x7f\x9e\x48\x8b\x04\x25", 7);
			put_abs(t + k + 7, save);
			k += 11;
		}
		if (pass == 1)
			t[k++] = 0xcc;	/* the count trap */
		if ((k = put_edge(t, k, bytes, e, F, T, ta, save)) < 0)
			return -1;
		if (pass == 0) {
			tail[1] = k;	/* the zero path starts here */
			put_rel32(t + tail[0], ta + tail[0] + 4, ta + k);
		}
	}
	*zero = tail[1] + (pl->live ? 11 : 0);
	return k;
}

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

/* Choose the places of the mapping's edges: ins[0..n) in order, targets
 * tg (sorted). Fills *pl; returns how many. */
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
			ind[func_of(c, ins[i].off)] = 1;	/* not calls: they go to functions */
	size_t np = 0, cap = 0;
	int64_t done = 0;	/* bytes below this are taken by a site */
	*pl = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct insn *e = &ins[i];
		if (!is_edge(e->kind))
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
			skipped++;
			continue;
		}
		if (np == cap)
			*pl = xrealloc(*pl, (cap = cap * 2 + 256) * sizeof **pl);
		(*pl)[np++] = (struct plan){ first, i,
			e->kind == K_EDGE_IND || e->kind == K_EDGE_ICALL ? 1 :
			flags_live(bytes, nbytes, e->target) };
		done = end;
	}
	free(ind);
	return np;
}

/* Bump whenever what the plans of a file's code are changes: sweep(),
 * classify(), movable(), flags_live(), plan_sites(), or this layout.
 * The cache key holds it, and Zydis's version. (COUNT_VERSION, in the
 * trace, changes with it: replay must patch as rec did.) */
#define PLAN_VERSION 4

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

/* Keys computed in this run, by the file's identity and offset and the
 * length: hashing the code again for each process would cost more than
 * patching it. */
static struct idmemo {
	uint64_t id;
	size_t n;
	uint64_t key[2];
} ids[64];
static int nids;

void plan_id(const struct code *code, const struct codebytes *cb, uint64_t key[2])
{
	for (int i = 0; cb->key && i < nids && i < 64; i++)
		if (ids[i].id == cb->key && ids[i].n == cb->n) {
			memcpy(key, ids[i].key, 2 * sizeof *key);
			return;
		}
	plan_key(code, cb, key);
	if (cb->key) {
		struct idmemo *m = &ids[nids++ % 64];
		*m = (struct idmemo){ cb->key, cb->n, { key[0], key[1] } };
	}
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
		if (!in->len || in->len > 15 || in->off >= n || in->len > n - in->off || in->kind >= K_KINDS ||
		    in->target < -1 || in->target >= (int64_t)n)
			goto bad;
	}
	for (size_t i = 0; i < x->np; i++, q += PLAN_BYTES) {
		uint32_t w[3];
		memcpy(w, q, 12);
		x->pl[i] = (struct plan){ w[0], w[1], w[2] };
		int k = w[1] < x->nins ? x->ins[w[1]].kind : -1;
		if (w[0] > w[1] || w[1] >= x->nins || w[1] - w[0] > MAXMOVE || w[2] > 1 ||
		    !is_edge(k) || (k != K_EDGE_IND && k != K_EDGE_ICALL && x->ins[w[1]].target < 0))
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
	long unc = skipped;
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
	x->uncounted = skipped - unc;
}

FILE *plan_log(void)
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

const struct plans *plan_cached(const struct code *code, const struct codebytes *cb)
{
	for (int i = 0; i < nknown && i < 16; i++)
		if (known[i].key == cb->key && known[i].n == cb->n) {
			return &known[i].x;
		}
	struct known *k = &known[nknown++ % 16];
	free(k->x.ins);
	free(k->x.pl);
	k->key = cb->key;
	k->n = cb->n;
	uint64_t key[2];
	plan_id(code, cb, key);
	const uint8_t *m;
	uint8_t *b;
	size_t len;
	int got = code_cache_map("count", key, PLAN_VERSION, &m, &len);
	if (got == 0) {
		if (plans_decode(m, len, cb->n, &k->x) < 0)
			got = -2;
		code_cache_unmap(m, len);
	}
	if (got != -3 && plan_log())
		fprintf(plan_log(), "cache %016llx%016llx %s\n", (unsigned long long)key[0],
			(unsigned long long)key[1], got == 0 ? "hit" : got == -1 ? "miss" : "damaged");
	if (got < 0) {
		plans_make(code, cb, &k->x);
		b = plans_encode(&k->x, &len);
		code_cache_put("count", key, PLAN_VERSION, b, len);
		free(b);
	}
	return &k->x;
}
