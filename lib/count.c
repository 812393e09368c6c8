/* count.c: counts taken backward jumps, indirect jumps, backward calls
 * and indirect calls with patched code (see count.h): patches each
 * process's code with the plans of countplan.c, in trampoline pages
 * injected near it, at its exec or lazily, and follows its mappings.
 * Slots and traps: counttrap.c; checkpoints: countsnap.c. */
#include "count.h"
#include "countint.h"
#include "countimg.h"
#include "countplan.h"
#include "bufabi.h"
#include "codescan.h"
#include "inject.h"
#include "maps.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define REACH 0x7ff00000ll	/* what a rel32 reaches, with room to spare */

static int on = -1, lazy;
static char *trace_root;	/* replay: the trace's directory, absolute */
static void (*debugger_bytes)(uint32_t key, uint64_t addr, uint8_t *buf, size_t len);
static unsigned long activations;
static struct cproc *procs;
static int nprocs;
static long npatched, nuncounted;

int count_choose(int recorded, int recorded_lazy, const char *dir)
{
	free(trace_root);
	trace_root = dir ? realpath(dir, NULL) : NULL;
	if (recorded > 0 && (recorded < COUNT_SAME_SINCE || recorded > COUNT_VERSION))
		die(EXIT_TRACE, "the trace was counted by code patched another way (patcher %d; this "
		    "rewind's is %d): record the program again", recorded, COUNT_VERSION);
	if (recorded >= 0) {
		on = recorded != 0;
		lazy = recorded_lazy;
	} else {
		on = !env_flag("REWIND_NO_COUNT");
		lazy = !env_flag("REWIND_COUNT_EAGER");
	}
	if (on && plan_init() < 0)
		die(EXIT_TRACE, "cannot set up the x86 decoder (Zydis)");
	return on ? COUNT_VERSION : 0;
}

int count_on(void)
{
	return on > 0;
}

int count_lazy(void)
{
	return on > 0 && lazy;
}

struct cproc *cnt_proc(uint32_t key, int make)
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

struct cthread *cnt_thread(struct cproc *c, uint32_t tid)
{
	for (int i = 0; i < c->nt; i++)
		if (c->t[i].tid == tid)
			return &c->t[i];
	c->t = xrealloc(c->t, (c->nt + 1) * sizeof *c->t);
	c->t[c->nt] = (struct cthread){ tid, COUNT_BASE };
	return &c->t[c->nt++];
}

void cnt_push_site(struct cproc *c, const struct csite *s)
{
	if (c->n == c->cap)
		c->s = xrealloc(c->s, (c->cap = c->cap * 2 + 64) * sizeof *c->s);
	c->s[c->n++] = *s;
}

/* c's regions made again from its sites: a new region wherever a
 * site's trampoline does not follow the one before. */
void cnt_regions_make(struct cproc *c)
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

/* What other patchers changed in the code read, put back: a debugger's
 * int3s (count_debugger), then rdtsc's patches (tsc.c). */
void count_own_bytes(uint32_t key, uint64_t addr, uint8_t *buf, size_t len)
{
	if (debugger_bytes)
		debugger_bytes(key, addr, buf, len);
	tsc_unpatch(key, addr, buf, len);
}

/* Whether [lo, hi) of c is inside one mapping it saw. */
static int seen_whole(const struct cproc *c, uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].lo <= lo && c->seen[i].hi >= hi)
			return 1;
	return 0;
}

/* What path is (dev, ino, size, mtime), or zeros. */
static void file_id(const char *path, uint64_t id[4])
{
	struct stat st;
	memset(id, 0, 4 * sizeof *id);
	if (stat(path, &st) == 0) {
		id[0] = st.st_dev;
		id[1] = st.st_ino;
		id[2] = st.st_size;
		id[3] = st.st_mtim.tv_sec * 1000000000ull + st.st_mtim.tv_nsec;
	}
}

/* The path a kept file is at: one inside the trace's directory is kept
 * relative to it ("@" then the rest), so that a trace moved elsewhere
 * with its checkpoints still finds its copies. buf: PATH_MAX bytes. */
static const char *kept_path(const char *kept, char *buf)
{
	if (kept[0] != '@' || !trace_root)
		return kept;
	snprintf(buf, PATH_MAX, "%s/%s", trace_root, kept + 1);
	return buf;
}

/* realpath(path), malloc'd. Of a /proc link (/proc/PID/fd/N,
 * /proc/PID/exe) realpath resolves every component of the target afresh:
 * the target, when it names the same file, is the path the kernel keeps,
 * which has no link in it (three calls where realpath makes ten). */
static char *resolve(const char *path)
{
	char buf[PATH_MAX];
	struct stat a, b;
	ssize_t n = strncmp(path, "/proc/", 6) ? -1 : readlink(path, buf, sizeof buf - 1);
	if (n > 0 && buf[0] == '/') {
		buf[n] = 0;
		if (stat(path, &a) == 0 && stat(buf, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return xstrdup(buf);
	}
	return realpath(path, NULL);
}

/* path as kept (malloc'd; NULL if it names nothing): absolute (rec's
 * /proc/PID/fd/N resolved to the file's own, which outlives the fd), or
 * inside the trace (replay). */
static char *keep_path(const char *path)
{
	char *abs = path ? resolve(path) : NULL;
	size_t rl = trace_root ? strlen(trace_root) : 0;
	if (abs && rl && !strncmp(abs, trace_root, rl) && abs[rl] == '/') {
		abs[0] = '@';
		memmove(abs + 1, abs + rl + 1, strlen(abs + rl + 1) + 1);
	}
	return abs;
}

/* Keep the file at path for c; returns its index, -1 if none. */
static int keep_file(struct cproc *c, const char *path)
{
	char *abs = keep_path(path);
	if (!abs)
		return -1;
	if (c->nfiles && !strcmp(c->files[c->nfiles - 1].path, abs)) {
		free(abs);
		return c->nfiles - 1;
	}
	char buf[PATH_MAX];
	c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof *c->files);
	c->files[c->nfiles].path = abs;
	file_id(kept_path(abs, buf), c->files[c->nfiles].id);
	return c->nfiles++;
}

void cnt_files_free(struct cproc *c)
{
	for (int i = 0; i < c->nfiles; i++)
		free(c->files[i].path);
	c->nfiles = 0;
}

/* Count the edges of the file mapping sc of process c. */
static void patch_mapping(struct codescan *sc, void *arg)
{
	struct cproc *c = arg;
	struct code code;
	struct codebytes cb;
	if ((c->ok || c->pending) && !c->activating && !sc->shared) {
		c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
		c->seen[c->nseen++] = (struct cseen){ sc->lo, sc->hi, sc->off,
						      c->pending ? keep_file(c, sc->files[0]) : -1 };
	}
	/* Counted lazily: seen now, patched when the process is activated. */
	if (c->pending)
		return;
	/* rdtsc patched already (tsc.c) is the file's code all the same. */
	sc->unpatch = count_own_bytes;
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
		} else if (c->activating && debugger_bytes) {
			/* A debugger's int3s are not the program's: its own
			 * bytes are compared and written back (the debugger
			 * puts its int3s in again: count_activations()). */
			debugger_bytes(c->key, sc->lo + lo, cur, span);
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
		cnt_push_site(c, &s);
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

/* Map c's data page in p (thread tid runs) and start every thread's
 * count; returns c->ok. */
static int data_page(struct pt_proc *p, struct cproc *c, uint32_t tid)
{
	c->nt = 0;
	c->owner = 0;
	c->ok = !c->traced && map_at(p, COUNT_DATA, 4096, PROT_READ | PROT_WRITE) == 0;
	if (!c->ok)
		return 0;
	uint64_t v = COUNT_BASE;
	pt_write(p, COUNT_DATA, &v, 8);
	c->owner = tid;
	cnt_thread(c, tid)->slot = COUNT_BASE;
	return 1;
}

void count_exec(struct pt_proc *p, uint32_t key, uint32_t tid, const char *exe)
{
	if (!count_on())
		return;
	struct cproc *c = cnt_proc(key, 1);
	c->n = c->nt = c->nr = c->nseen = 0;
	cnt_files_free(c);
	c->owner = 0;
	c->ok = 0;
	free(c->exe);
	c->exe = keep_path(exe);
	/* Lazily: most processes never make a thread or arm a timer, and
	 * patching costs more than they run (cc1: 50 ms). */
	c->pending = lazy && !c->traced;
	c->due = 0;
	if (c->pending || data_page(p, c, tid))
		code_each_exec(p, exe, patch_mapping, c);
}

/* Whether each mapping lazily counted process c saw is still of the
 * file it was when mapped (rec checks; replay does what rec did). */
static int files_same(const struct cproc *c)
{
	for (int i = 0; i < c->nseen; i++) {
		uint64_t id[4];
		if (c->seen[i].file < 0)
			return 0;
		const struct cfile *f = &c->files[c->seen[i].file];
		char buf[PATH_MAX];
		file_id(kept_path(f->path, buf), id);
		if (!f->id[1] || memcmp(id, f->id, sizeof id))
			return 0;
	}
	return 1;
}

/* The scan of mapping v that lazily counted process c saw (p: a thread
 * of it), from the file kept for it; buf and ebuf: PATH_MAX bytes each,
 * for the paths. */
static struct codescan seen_scan(struct pt_proc *p, const struct cproc *c, const struct cseen *v,
				 char *buf, char *ebuf)
{
	return (struct codescan){ p, v->lo, v->hi, v->off,
				  { v->file >= 0 ? kept_path(c->files[v->file].path, buf) : NULL,
				    c->exe ? kept_path(c->exe, ebuf) : NULL },
				  0, count_own_bytes, c->key };
}

/* Patch the mappings lazily counted process c has seen (p: its thread
 * tid, stopped at the end of a call, runs). Returns 1 if done. */
static int activate(struct pt_proc *p, struct cproc *c, uint32_t tid)
{
	c->pending = c->due = 0;
	if (!data_page(p, c, tid))
		return 0;
	c->activating = 1;	/* the seen list stays as it is meanwhile */
	for (int i = 0; i < c->nseen; i++) {
		char buf[PATH_MAX], ebuf[PATH_MAX];
		struct codescan sc = seen_scan(p, c, &c->seen[i], buf, ebuf);
		patch_mapping(&sc, c);
	}
	c->activating = 0;
	activations++;
	cnt_files_free(c);
	if (plan_log()) {
		fprintf(plan_log(), "activate %u %d\n", c->key, c->n);
		fflush(plan_log());
	}
	return 1;
}

int count_call_end(struct pt_proc *p, uint32_t key, uint32_t tid, long nr, const uint64_t a[6],
		   int64_t ret, int made_thread, int (*others_clear)(void))
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	if (!c || !c->pending || ret < 0)
		return 0;
	/* A thread, or a timer whose signal may come anywhere: from here
	 * on a preemption or a signal should be a point. */
	int timer = (nr == SYS_setitimer && a[1]) || (nr == SYS_alarm && a[0]) ||
		    nr == SYS_timer_settime;
	c->due |= made_thread || timer;
	if (!c->due || !others_clear())
		return 0;
	/* A file changed since it was mapped (replay has the bytes mapped
	 * then): never patched, for rec and replay alike. */
	if (!files_same(c)) {
		c->pending = 0;
		cnt_files_free(c);
		return 0;
	}
	return activate(p, c, tid);
}

void count_debugger(void (*bytes)(uint32_t key, uint64_t addr, uint8_t *buf, size_t len))
{
	debugger_bytes = bytes;
}

unsigned long count_activations(void)
{
	return activations;
}

void count_patch_now(struct pt_proc *p, uint32_t key, uint32_t tid)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	if (c && c->pending)
		activate(p, c, tid);
}

/* [lo, hi) of c was unmapped, mapped over or changed: no longer seen
 * (what is mapped there anew is seen when it is patched). */
static void unsee(struct cproc *c, uint64_t lo, uint64_t hi)
{
	int n = c->nseen;
	for (int i = 0; i < n; i++) {
		struct cseen v = c->seen[i];
		if (v.lo >= hi || v.hi <= lo)
			continue;
		c->seen[i].hi = v.lo;	/* emptied; the parts outside stay */
		if (v.lo < lo) {
			c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
			c->seen[c->nseen++] = (struct cseen){ v.lo, lo, v.off, v.file };
		}
		if (v.hi > hi) {
			c->seen = xrealloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
			c->seen[c->nseen++] = (struct cseen){ hi, v.hi, v.off + (hi - v.lo), v.file };
		}
	}
	int k = 0;
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].lo < c->seen[i].hi)
			c->seen[k++] = c->seen[i];
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
	struct cproc *c = count_on() ? cnt_proc(key, 1) : NULL;
	if (!c)
		return;
	c->traced = 1;
	c->pending = 0;
	cnt_files_free(c);
	if (c->ok)
		disable(p, c);
}

void count_syscall(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret,
		   const char *file)
{
	if (!count_on() || (ret < 0 && ret > -4096))
		return;
	struct cproc *c = cnt_proc(key, 0);
	if (!c)
		return;
	uint64_t len = (a[1] + 4095) & ~4095ull;
	uint64_t at = nr == SYS_mmap ? (uint64_t)ret : a[0];
	if (!c->ok && !c->pending)
		return;
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
	struct cproc *pa = cnt_proc(parent, 0);
	struct cproc *c = cnt_proc(child, 1);
	pa = cnt_proc(parent, 0);	/* procs may have moved */
	c->n = c->nt = c->nr = c->nseen = 0;
	c->owner = 0;
	c->ok = pa && pa->ok;
	c->pending = pa && pa->pending;
	free(c->exe);
	c->exe = pa && pa->exe ? xstrdup(pa->exe) : NULL;
	if (pa && pa->nseen) {
		c->seen = xrealloc(c->seen, pa->nseen * sizeof *c->seen);
		memcpy(c->seen, pa->seen, pa->nseen * sizeof *c->seen);
		c->nseen = pa->nseen;
	}
	cnt_files_free(c);
	if (pa && pa->nfiles) {
		c->files = xrealloc(c->files, pa->nfiles * sizeof *c->files);
		for (int i = 0; i < pa->nfiles; i++) {
			c->files[i] = pa->files[i];
			c->files[i].path = xstrdup(pa->files[i].path);
		}
		c->nfiles = pa->nfiles;
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

int count_seen_all(pid_t pid, uint32_t key)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
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
		exact = seen_whole(c, m.lo, m.hi);
	}
	if (f)
		fclose(f);
	return exact;
}

int count_moved(uint32_t key, uint64_t addr)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	for (int i = 0; c && i < c->n; i++)
		if (addr > c->s[i].at && addr < c->s[i].at + c->s[i].len)
			return 1;
	return 0;
}

int count_will_move(struct pt_proc *p, uint32_t key, uint64_t addr)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	if (!c || !c->pending)
		return count_moved(key, addr);
	for (int i = 0; p && i < c->nseen; i++) {
		const struct cseen *v = &c->seen[i];
		if (addr < v->lo || addr >= v->hi)
			continue;
		char buf[PATH_MAX], ebuf[PATH_MAX];
		struct codescan sc = seen_scan(p, c, v, buf, ebuf);
		struct code code;
		struct codebytes cb;
		if (code_bytes(&sc, 1, &code, &cb) < 0)
			return 0;
		const struct plans *pp = plan_cached(&code, &cb);
		int moved = 0;
		for (size_t k = 0; pp && k < pp->np && !moved; k++) {
			const struct insn *a = &pp->ins[pp->pl[k].first], *b = &pp->ins[pp->pl[k].last];
			moved = addr > v->lo + a->off && addr < v->lo + b->off + b->len;
		}
		code_done(&code, &cb);
		return moved;
	}
	return 0;
}

void count_unpatch(uint32_t key, uint64_t addr, uint8_t *buf, size_t len)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	for (int i = 0; c && i < c->n; i++) {
		const struct csite *s = &c->s[i];
		for (int j = 0; j < s->len; j++)
			if (s->at + j >= addr && s->at + j - addr < len)
				buf[s->at + j - addr] = s->orig[j];
	}
}

void count_stats(long *patched, long *uncounted)
{
	*patched = npatched;
	*uncounted = nuncounted;
}
