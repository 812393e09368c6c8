/* count.c: counts taken backward jumps and indirect jumps with patched
 * code (see count.h): patches each process's code with the plans of
 * countplan.c, in trampoline pages injected near it, and keeps each
 * thread's slot, arms it and takes its traps. */
#include "count.h"
#include "countimg.h"
#include "countplan.h"
#include "bufabi.h"
#include "codescan.h"
#include "inject.h"
#include "maps.h"
#include "tsc.h"
#include "util.h"

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
	if (on && plan_init() < 0)
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

struct holearg {
	pid_t pid;
	uint64_t lo, hi;
};

static uint64_t hole_at(void *arg, uint64_t size)
{
	const struct holearg *h = arg;
	return find_hole(h->pid, h->lo, h->hi, size);
}

/* Map len bytes at a in the stopped process p (MAP_FIXED_NOREPLACE),
 * whatever signal comes meanwhile: a map given up in rec and not in
 * replay (or the reverse) would leave code counted in one run only. */
static int map_at(struct pt_proc *p, uint64_t a, uint64_t len, int prot)
{
	struct user_regs_struct r;
	pt_getregs(p, &r);
	uint64_t args[6] = { a, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			     (uint64_t)-1, 0 }, ret = 0;
	if (eng_inject_quiet(p, &r, r.rip, SYS_mmap, args, &ret) < 0 || ret != a)
		return -1;
	return 0;
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
		if (plan_log())
			fprintf(plan_log(), "map %u %llx %llx own %s\n", c->key, (unsigned long long)sc->lo,
				(unsigned long long)sc->hi, sc->files[0]);
		code_done(&code, &cb);
		return;
	}
	struct holearg ha = { sc->p->pid, sc->lo, sc->hi };
	const struct img *im = img_for(&code, &cb, sc->lo, COUNT_DATA, hole_at, &ha);
	nuncounted += im->uncounted;
	size_t np = im->n;
	if (np && map_at(sc->p, im->ta, im->size, PROT_READ | PROT_EXEC) < 0) {
		nuncounted += np;
		np = 0;
	}
	/* The tracee's bytes, not the file's, are what runs: read once,
	 * patched in a copy, written once. A site whose bytes there are not
	 * the file's (rdtsc patched, say) is left alone. */
	uint64_t lo = 0, span = 0;
	uint8_t *cur = NULL;
	if (np) {
		lo = im->s[0].off;
		span = im->s[np - 1].off + im->s[np - 1].len - lo;
		cur = xmalloc(span);
		if (pt_read(sc->p, sc->lo + lo, cur, span) != (ssize_t)span) {
			nuncounted += np;
			np = 0;
		}
	}
	int n0 = c->n;
	int need = c->n + (int)np;
	if (need > c->cap)
		c->s = xrealloc(c->s, (c->cap = c->cap * 2 > need ? c->cap * 2 : need) * sizeof *c->s);
	for (size_t i = 0; i < np; i++) {
		const struct img_site *m = &im->s[i];
		struct csite s = { .at = sc->lo + m->off, .tramp = im->ta + m->toff, .tlen = m->tlen,
				   .zero = m->zero, .len = m->len, .live = m->live };
		uint8_t *here = cur + (m->off - lo);
		if (memcmp(here, cb.bytes + m->off, s.len)) {
			nuncounted++;
			continue;
		}
		memcpy(s.orig, here, s.len);
		memset(here, 0xcc, s.len);
		here[0] = 0xe9;
		put_rel32(here + 1, s.at + 5, s.tramp);
		push_site(c, &s);
		npatched++;
	}
	/* Trampolines first: the code jumps to them once it is written. A
	 * process that cannot be written (it was killed) stays uncounted. */
	if (c->n > n0 && (pt_write(sc->p, im->ta, im->tr, im->used) < 0 ||
			  pt_write(sc->p, sc->lo + lo, cur, span) < 0)) {
		nuncounted += c->n - n0;
		npatched -= c->n - n0;
		c->n = n0;
	}
	if (c->n > n0) {
		c->r = xrealloc(c->r, (c->nr + 1) * sizeof *c->r);
		c->r[c->nr++] = (struct cregion){ c->s[n0].at, c->s[c->n - 1].at + c->s[c->n - 1].len,
						  im->ta, im->ta + im->used };
	}
	if (plan_log())
		fprintf(plan_log(), "map %u %llx %llx %d %s\n", c->key, (unsigned long long)sc->lo,
			(unsigned long long)sc->hi, c->n - n0, sc->files[0]);
	for (int i = n0; i < c->n && plan_log(); i++)
		fprintf(plan_log(), "site %u %llx %llx %u %u %u %u\n", c->key,
			(unsigned long long)c->s[i].at, (unsigned long long)c->s[i].tramp, c->s[i].len,
			c->s[i].tlen, c->s[i].zero, c->s[i].live);
	if (plan_log())
		fflush(plan_log());
	free(cur);
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
