/* timeline.c: moving a replay through time for gdb. A place is an event
 * plus counted moves after it; checkpoints are forks of the replay; going
 * backwards is going forwards again from an earlier checkpoint. */
#include "timeline.h"
#include "maps.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXMARKS 64		/* periodic and stop checkpoints kept */
#define MARK_EVERY 0.05		/* seconds of forward replay between checkpoints */
#define STEP_BUDGET 100000	/* single steps one reverse-stepi may take */
#define STOP_BUDGET 20000	/* and stops on the way to a matched place */
#define MATCH_BUDGET 200000	/* stops to find an interrupt's place again */
#define MAXHITS 4096		/* hits a reverse search remembers */
#define COUNT_CHUNK 20000
#define WATCH_CHUNK 100		/* watchpoint hits counted between checkpoints */
#define PERF_END 2		/* cookie: the count that ends a move */

/* ---- positions ---- */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds between checkpoints: MARK_EVERY, or REWIND_MARK_EVERY (tests
 * make checkpoints fall everywhere with a tiny value, as a loaded machine
 * does now and then). */
static double mark_every(void)
{
	static double v = -1;
	if (v < 0) {
		const char *s = getenv("REWIND_MARK_EVERY");
		v = s && atof(s) > 0 ? atof(s) : MARK_EVERY;
	}
	return v;
}

static void pos_push(struct pos *p, const struct move *m)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->mv = xrealloc(p->mv, p->cap * sizeof *p->mv);
	}
	p->mv[p->n++] = *m;
}

static void pos_set(struct pos *dst, const struct pos *src, int n)
{
	dst->ev = src->ev;
	dst->n = 0;
	for (int i = 0; i < n; i++)
		pos_push(dst, &src->mv[i]);
}

static void pos_free(struct pos *p)
{
	free(p->mv);
	memset(p, 0, sizeof *p);
}

static int set_eq(const struct stopset *a, const struct stopset *b)
{
	return a->nbp == b->nbp && a->nwp == b->nwp &&
	       !memcmp(a->bp, b->bp, a->nbp * sizeof a->bp[0]) &&
	       !memcmp(a->wp, b->wp, a->nwp * sizeof a->wp[0]);
}

static int move_same(const struct move *a, const struct move *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == MV_RUN)
		return set_eq(&a->set, &b->set);
	if (a->kind == MV_MATCH)
		return !memcmp(&a->regs, &b->regs, sizeof a->regs) && a->hash == b->hash;
	if (a->kind == MV_COUNT)
		return a->addr == b->addr && a->wtype == b->wtype && a->wlen == b->wlen;
	return 1;
}

/* Is a at or before b on the way b is reached? (An earlier event's
 * interval is before; in one interval, a's moves lead into b's.)
 * Positions whose moves went different ways are not compared. */
static int pos_le(const struct pos *a, const struct pos *b)
{
	if (a->ev != b->ev)
		return a->ev < b->ev;
	if (a->n > b->n)
		return 0;
	for (int i = 0; i < a->n; i++) {
		if (!move_same(&a->mv[i], &b->mv[i]))
			return 0;
		if (a->mv[i].n != b->mv[i].n && (i != a->n - 1 || a->mv[i].n > b->mv[i].n ||
						 a->mv[i].kind == MV_MATCH))
			return 0;
	}
	return 1;
}

static int pos_eq(const struct pos *a, const struct pos *b)
{
	return a->ev == b->ev && a->n == b->n && pos_le(a, b) &&
	       (!a->n || a->mv[a->n - 1].n == b->mv[a->n - 1].n);
}

/* Of two positions on one way, is a the later? */
static int later(const struct pos *a, const struct pos *b)
{
	if (a->ev != b->ev)
		return a->ev > b->ev;
	if (a->n != b->n)
		return a->n > b->n;
	return a->n && a->mv[a->n - 1].n > b->mv[a->n - 1].n;
}

static void set_union(struct stopset *d, const struct stopset *a, const struct stopset *b)
{
	*d = *a;
	for (int i = 0; b && i < b->nbp; i++) {
		int j = 0;
		while (j < d->nbp && d->bp[j] != b->bp[i])
			j++;
		if (j == d->nbp && d->nbp < TL_MAXBP)
			d->bp[d->nbp++] = b->bp[i];
	}
	for (int i = 0; b && i < b->nwp; i++) {
		int j = 0;
		while (j < d->nwp && memcmp(&d->wp[j], &b->wp[i], sizeof d->wp[0]))
			j++;
		if (j == d->nwp && d->nwp < TL_MAXWP)
			d->wp[d->nwp++] = b->wp[i];
	}
}

/* ---- one resume with breakpoints and watchpoints armed ---- */

/* What stopped a resume. */
struct trapinfo {
	int res;		/* ENG_* */
	int arrived;		/* rip is where a step landed or an int3 hit */
	int perf;		/* a kernel count (MV_COUNT) reached its end */
	uint64_t cookie;	/* which count (its perf sig_data) */
	uint64_t rip;
	int nw;			/* watchpoints that fired */
	uint64_t waddr[TL_MAXWP];
	int wlen[TL_MAXWP], wtype[TL_MAXWP];
};

/* Is a one of s's int3 breakpoints? */
static int in_bps(const struct stopset *s, uint64_t a)
{
	for (int i = 0; i < s->nbp; i++)
		if (s->bp[i] == a)
			return 1;
	return 0;
}

/* ---- threads and processes ---- */

/* Does the thread that runs now belong to the debugged process? */
static int mine(struct timeline *t)
{
	return t->e.tasks[t->e.ti].rtgid == t->pid;
}

/* Where the thread that runs now is, if it is the debugged process's;
 * else 0 (nothing is armed for it, and it may be on its way out). */
static uint64_t rip_now(struct timeline *t)
{
	struct user_regs_struct r;
	if (!mine(t) || ptrace(PTRACE_GETREGS, t->e.p.pid, 0, &r) < 0)
		return 0;
	return r.rip;
}

struct pt_proc *tl_mem(struct timeline *t)
{
	struct engine *e = &t->e;
	if (mine(t) && e->tasks[e->ti].state != ET_GONE)
		return &e->p;
	for (int i = 0; i < e->ntasks; i++)
		if (i != e->ti && e->tasks[i].rtgid == t->pid && e->tasks[i].state != ET_GONE)
			return &e->tasks[i].p;
	return NULL;
}

int tl_threads(struct timeline *t, uint32_t *tids, int max)
{
	int n = 0;
	for (int i = 0; i < t->e.ntasks && n < max; i++)
		if (t->e.tasks[i].rtgid == t->pid && t->e.tasks[i].state != ET_GONE)
			tids[n++] = t->e.tasks[i].rtid;
	return n;
}

/* ---- breakpoints ---- */

/* Drop entry k of the int3s in the code (the last takes its slot). */
static void int3_forget(struct timeline *t, int k)
{
	t->ins.n--;
	t->ins.addr[k] = t->ins.addr[t->ins.n];
	t->ins.saved[k] = t->ins.saved[t->ins.n];
}

/* Is the int3 at t->ins.addr[k] still there? If not, forget it: the
 * program's own bytes replaced it (an event remapped the code), or the
 * process is gone. */
static int int3_there(struct timeline *t, int k)
{
	uint8_t b;
	struct pt_proc *m = tl_mem(t);
	if (m && pt_read(m, t->ins.addr[k], &b, 1) == 1 && b == 0xcc)
		return 1;
	int3_forget(t, k);
	return 0;
}

/* Take the int3 at t->ins.addr[k] out. */
static void int3_remove(struct timeline *t, int k)
{
	if (int3_there(t, k)) {
		pt_write(tl_mem(t), t->ins.addr[k], &t->ins.saved[k], 1);
		int3_forget(t, k);
	}
}

void tl_flush(struct timeline *t)
{
	while (t->ins.n)
		int3_remove(t, t->ins.n - 1);
}

/* Make the int3s in the debugged process those of s, but none at rip.
 * They stay between resumes (putting them in and out each time doubled
 * the cost of a stop); tl_flush() takes them out before anyone else
 * reads memory. */
static void int3_sync(struct timeline *t, const struct stopset *s, uint64_t rip)
{
	struct pt_proc *m = tl_mem(t);
	for (int k = t->ins.n - 1; k >= 0; k--)
		if (t->ins.addr[k] == rip || !in_bps(s, t->ins.addr[k]))
			int3_remove(t, k);
	for (int i = 0; m && i < s->nbp; i++) {
		static const uint8_t cc = 0xcc;
		int k = 0;
		while (k < t->ins.n && t->ins.addr[k] != s->bp[i])
			k++;
		if (k < t->ins.n || s->bp[i] == rip || pt_read(m, s->bp[i], &t->ins.saved[k], 1) != 1 ||
		    pt_write(m, s->bp[i], &cc, 1) < 0)
			continue;
		t->ins.addr[t->ins.n++] = s->bp[i];
	}
}

/* After an event: a process forked from the debugged one got copies of
 * its int3s; put its own bytes back. */
static void int3_scrub_new(struct timeline *t)
{
	struct engine *e = &t->e;
	for (; t->seen < e->ntasks; t->seen++) {
		struct eng_task *k = &e->tasks[t->seen];
		if (k->rtgid == t->pid || k->rtid != k->rtgid || t->seen == e->ti)
			continue;
		for (int i = 0; i < t->ins.n; i++) {
			uint8_t b;
			if (pt_read(&k->p, t->ins.addr[i], &b, 1) == 1 && b == 0xcc)
				pt_write(&k->p, t->ins.addr[i], &t->ins.saved[i], 1);
		}
	}
}

/* Resume once (step or continue) with s armed; int3s are not put at rip,
 * so a continue from a breakpoint's address must step first. Stops of
 * the watch module's own (a fault on a protected page, a count by stops
 * that does not signal) are gone through here; res 0 is a failure
 * (t->msg). */
/* Remember the event just replayed if it preempted a thread of the
 * debugged process (once: windows are replayed again and again). */
static void note_gap(struct timeline *t)
{
	const struct trace_rec *c = &t->e.cur;
	struct eng_task *k = eng_task_of(&t->e, c->tid);
	/* With re-execution on, a stretch is set without a search only
	 * when nothing was armed that could stop in it. */
	if (c->kind != TR_PREEMPT || !k || k->rtgid != t->pid || t->e.preempt_how == RM_FOUND ||
	    (t->reexec && t->e.preempt_how == RM_SET))
		return;
	for (int i = t->ngaps; i-- > 0;)
		if (t->gaps[i].ev == c->event)
			return;
	if (t->ngaps == t->capgaps) {
		t->capgaps = t->capgaps ? 2 * t->capgaps : 16;
		t->gaps = xrealloc(t->gaps, t->capgaps * sizeof *t->gaps);
	}
	t->gaps[t->ngaps].ev = c->event;
	t->gaps[t->ngaps].how = t->e.preempt_how;
	t->gaps[t->ngaps].rip = get64(c->p);
	t->gaps[t->ngaps++].tid = c->tid;
}

int tl_gaps(struct timeline *t, uint64_t a, uint64_t b, char *buf, size_t size)
{
	if (a == UINT64_MAX || b == UINT64_MAX)	/* lost its place */
		return 0;
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	int n = 0, best = -1;
	for (int i = 0; i < t->ngaps; i++) {
		uint64_t ev = t->gaps[i].ev;
		if (ev <= lo || ev > hi)
			continue;
		n++;
		if (best < 0 || (a < b ? ev < t->gaps[best].ev : ev > t->gaps[best].ev))
			best = i;
	}
	if (!n)
		return 0;
	char why[240];
	if (t->gaps[best].how == RM_GAVEUP)
		snprintf(why, sizeof why, "preempted at 0x%llx, a place not found again within %llu "
			 "arrivals there (REWIND_REEXEC_BUDGET); its state was set",
			 (unsigned long long)t->gaps[best].rip, (unsigned long long)rematch_budget());
	else if (t->gaps[best].how == RM_PASSED)
		snprintf(why, sizeof why, "preempted at 0x%llx, passed without a match up to a "
			 "system call; its state was set there, and stops in the stretch may have come "
			 "too early", (unsigned long long)t->gaps[best].rip);
	else
		snprintf(why, sizeof why, "preempted; its state was set");
	int len = snprintf(buf, size, "rewind: thread %u was not re-executed up to event %llu "
			   "(%s): a breakpoint or watchpoint there cannot stop",
			   t->gaps[best].tid, (unsigned long long)t->gaps[best].ev, why);
	if (n > 1)
		len += snprintf(buf + len, size - len, " (and %d more such stretches passed)", n - 1);
	len += snprintf(buf + len, size - len, "\n");
	return len < (int)size ? len : (int)size - 1;
}

static void resume(struct timeline *t, const struct stopset *s, int step, struct trapinfo *ti)
{
	struct engine *e = &t->e;
	struct user_regs_struct r;
	static const struct stopset none;
	struct stopset armed = none;
	struct watch_stop ws;
	int my = mine(t);
	memset(ti, 0, sizeof *ti);
	if (my) {
		uint64_t a[WATCH_NCOUNT + 1];
		armed = *s;
		int n = watch_bps(&t->w, a, WATCH_NCOUNT), counting = 0;
		for (int i = 0; i < WATCH_NCOUNT; i++)
			counting |= t->w.c[i].used;
		/* A preempted stretch is run again only when something could
		 * stop in it: it ends in the same state either way. Every
		 * move inside an event's interval arms something or steps, so
		 * the places inside a stretch are always reached the same
		 * way. The thread then runs to the preemption's place, an
		 * int3 hidden from gdb (engine.h). */
		e->reexec = t->reexec && (step || n || s->nbp || s->nwp || counting) ? t->pid : 0;
		if ((a[n] = eng_rematch_rip(e)))
			n++;
		for (int i = 0; i < n; i++)
			if (!in_bps(&armed, a[i]) && armed.nbp < TL_MAXBP)
				armed.bp[armed.nbp++] = a[i];
		t->ran = e->tasks[e->ti].rtid;
	} else {
		/* Another process: nothing armed, and no int3 in memory it
		 * may share (a vfork child runs in its parent's). */
		tl_flush(t);
		s = &none;
		e->reexec = 0;
	}
	for (int first = 1;; first = 0) {
		uint64_t rip = rip_now(t);
		if (my) {
			if (watch_arm(&t->w, s->wp, s->nwp) < 0)
				goto fail;
			int3_sync(t, &armed, rip);
			if (watch_before(&t->w, rip, &ws)) {	/* a count ends before rip runs */
				ti->res = ENG_TRAP;
				ti->perf = ti->arrived = 1;
				ti->cookie = ws.cookie;
				ti->rip = rip;
				return;
			}
		}
		/* The int3 at rip is out while the thread leaves it: a step. */
		int st = my ? watch_step(&t->w, (first && step) || in_bps(&armed, rip)) : step;
		ti->res = eng_resume(e, st);
		if (ti->res == ENG_EVENT)
			note_gap(t);
		if (ti->res == ENG_EVENT) {	/* the event may have remapped code */
			for (int k = t->ins.n - 1; k >= 0; k--)
				int3_there(t, k);
			int3_scrub_new(t);
			eng_ready(e);
		}
		if (st)
			t->nsteps++;
		if (ti->res != ENG_TRAP) {
			watch_ran(&t->w);
			return;
		}
		t->nstops++;
		pt_getregs(&e->p, &r);
		int hit3 = 0;
		if (!st && e->trap.si_signo == SIGTRAP && e->trap.si_code == SI_KERNEL)
			for (int k = 0; k < t->ins.n; k++)
				if (t->ins.addr[k] == r.rip - 1) {
					r.rip--;
					pt_setregs(&e->p, &r);
					hit3 = 1;
				}
		int k = my ? watch_trap(&t->w, hit3, r.rip, &ws) : 0;
		if (k < 0)
			goto fail;
		if (k)
			continue;	/* the access is stepped next, its page open */
		ti->rip = r.rip;
		ti->arrived = hit3 || step || (st && in_bps(&armed, r.rip)) || (ws.counted && !ws.count_watch);
		ti->perf = ws.counted;
		ti->cookie = ws.cookie;
		for (int i = 0; i < ws.nw; i++) {
			ti->waddr[ti->nw] = ws.w[i].addr;
			ti->wlen[ti->nw] = ws.w[i].len;
			ti->wtype[ti->nw++] = ws.w[i].type;
		}
		if (!my || step || ti->nw || ti->perf || (ti->arrived && in_bps(s, r.rip)) ||
		    (!hit3 && !st))
			return;
	}
fail:
	snprintf(t->msg, sizeof t->msg, "%s", t->w.msg);
	ti->res = 0;
}

/* Did the stop belong to set s? Fills *w with why, if given. */
static int stop_of(const struct stopset *s, const struct trapinfo *ti, struct why *w)
{
	if (ti->res != ENG_TRAP)
		return 0;
	for (int k = 0; k < ti->nw; k++)
		for (int i = 0; i < s->nwp; i++)
			if (s->wp[i].addr == ti->waddr[k] && s->wp[i].len == ti->wlen[k] &&
			    s->wp[i].type == ti->wtype[k]) {
				if (w) {
					w->why = WHY_WATCH;
					w->addr = ti->waddr[k];
					w->wtype = ti->wtype[k];
				}
				return 1;
			}
	if (ti->arrived && in_bps(s, ti->rip)) {
		if (w)
			w->why = WHY_BP;
		return 1;
	}
	return 0;
}

/* ---- checkpoints ---- */

static void drop_mark(struct timeline *t, int i)
{
	eng_snap_free(&t->marks[i].snap);
	pos_free(&t->marks[i].pos);
	memmove(&t->marks[i], &t->marks[i + 1], (t->nmarks - i - 1) * sizeof t->marks[0]);
	t->nmarks--;
}

/* Fork the replay, with no debug register armed while it runs the fork. */
static int snap(struct timeline *t, struct eng_snap *s)
{
	watch_disarm(&t->w);
	if (watch_still_armed(&t->w))
		return -1;	/* its copy would fault where the recording did not */
	tl_flush(t);
	return eng_snap(&t->e, s);
}

static void keep_mark(struct timeline *t, const struct mark *m);

static int add_mark(struct timeline *t, int id)
{
	for (int i = 0; i < t->nmarks; i++)
		if (pos_eq(&t->marks[i].pos, &t->here)) {
			if (id && !t->marks[i].id)
				t->marks[i].id = id;
			return t->marks[i].id;
		}
	struct mark m = { 0 };
	if (snap(t, &m.snap) < 0)
		return -1;
	pos_set(&m.pos, &t->here, t->here.n);
	m.id = id;
	keep_mark(t, &m);
	return id;
}

/* Add m to the checkpoints, thinning the automatic ones. */
static void keep_mark(struct timeline *t, const struct mark *m)
{
	if (t->nmarks == t->capmarks) {
		t->capmarks = t->capmarks ? 2 * t->capmarks : 32;
		t->marks = xrealloc(t->marks, t->capmarks * sizeof *t->marks);
	}
	t->marks[t->nmarks++] = *m;
	t->last_mark = now();
	/* Keep at most MAXMARKS automatic ones: drop every second of the
	 * older half, so that checkpoints thin out towards the past. */
	int autos = 0;
	for (int i = 0; i < t->nmarks; i++)
		autos += t->marks[i].id == 0;
	if (autos > MAXMARKS) {
		int seen = 0;
		for (int i = 1; i < t->nmarks && seen < MAXMARKS / 2; i++)
			if (t->marks[i].id == 0 && seen++ % 2 == 0)
				drop_mark(t, i--);
	}
}

static void maybe_mark(struct timeline *t)
{
	if (now() - t->last_mark > mark_every())
		add_mark(t, 0);
}

/* The latest checkpoint at or before p, or -1. */
static int best_mark(struct timeline *t, const struct pos *p)
{
	int best = -1;
	for (int i = 0; i < t->nmarks; i++)
		if (pos_le(&t->marks[i].pos, p) && (best < 0 || later(&t->marks[i].pos, &t->marks[best].pos)))
			best = i;
	return best;
}

static void restore(struct timeline *t, int i)
{
	eng_restore(&t->e, &t->marks[i].snap);
	watch_reset(&t->w);
	t->ins.n = 0;	/* checkpoints are made without int3s */
	t->seen = t->e.ntasks;
	eng_ready(&t->e);
	if (mine(t))
		t->ran = t->e.tasks[t->e.ti].rtid;
	pos_set(&t->here, &t->marks[i].pos, t->marks[i].pos.n);
}

/* ---- moves ---- */

/* A search backwards records the stops of the user's set it passes. */
struct scan {
	const struct stopset *u;
	int final;		/* the stop that ends the move is the target */
};

static void add_hit(struct timeline *t, const struct move *pre, const struct move *m, const struct why *w)
{
	if (t->nhits == MAXHITS) {
		pos_free(&t->hits[0]);
		memmove(t->hits, t->hits + 1, (MAXHITS - 1) * sizeof *t->hits);
		memmove(t->hitwhy, t->hitwhy + 1, (MAXHITS - 1) * sizeof *t->hitwhy);
		t->nhits--;
		memset(&t->hits[t->nhits], 0, sizeof t->hits[0]);
	}
	if (t->nhits == t->capnhits) {
		t->capnhits = t->capnhits ? 2 * t->capnhits : 64;
		t->hits = xrealloc(t->hits, t->capnhits * sizeof *t->hits);
		t->hitwhy = xrealloc(t->hitwhy, t->capnhits * sizeof *t->hitwhy);
		memset(t->hits + t->nhits, 0, (t->capnhits - t->nhits) * sizeof *t->hits);
	}
	struct pos *h = &t->hits[t->nhits];
	pos_set(h, &t->here, t->here.n);
	if (pre)
		pos_push(h, pre);
	pos_push(h, m);
	t->hitwhy[t->nhits++] = *w;
}

static uint64_t mem_hash(struct timeline *t)
{
	watch_disarm(&t->w);	/* the program's own protection shows in the maps */
	FILE *f = maps_open(t->e.p.pid);
	uint64_t h = HASH_INIT, total = 0;
	static uint8_t buf[1 << 16];
	struct maps_line m;
	while (f && maps_next(f, &m)) {
		if (m.perm[1] != 'w')
			continue;
		for (uint64_t a = m.lo; a < m.hi; a += sizeof buf) {
			size_t n = m.hi - a < sizeof buf ? m.hi - a : sizeof buf;
			ssize_t k = pt_read(&t->e.p, a, buf, n);
			if (k <= 0)
				break;
			h = hash_update(h, buf, k);
			total += k;
		}
	}
	if (f)
		fclose(f);
	return hash_final(h, total);
}

#define EFLAGS_RF 0x10000	/* resume flag: set by the kernel after some traps */

static int state_is(struct timeline *t, const struct move *m)
{
	struct user_regs_struct r;
	tl_regs(t, &r);
	r.eflags &= ~EFLAGS_RF;
	return !memcmp(&r, &m->regs, sizeof r) && mem_hash(t) == m->hash;
}

/* Count what COUNT move m counts (executions of an instruction, counted
 * before it runs, or hits of a watchpoint, counted after), signalling at
 * every period-th with cookie (watch.h). Returns a handle, or -1 with
 * t->msg. */
static int count_move(struct timeline *t, const struct move *m, uint64_t period, uint64_t cookie)
{
	int h = watch_count_open(&t->w, m->addr, m->wtype, m->wlen, period, cookie);
	if (h < 0)
		snprintf(t->msg, sizeof t->msg, "%s", t->w.msg);
	return h;
}

static void mark_mid(struct timeline *t, const struct move *m);

/* Make a COUNT move (see do_move), in chunks with a checkpoint now and
 * then between them. */
static int do_count(struct timeline *t, const struct move *m, uint64_t done, const struct scan *sc)
{
	struct stopset u = { 0 };
	if (sc)
		u = *sc->u;
	/* A watchpoint of u that this move counts is not armed twice (both
	 * would fire at once and one SIGTRAP be lost): its hits are the
	 * counts. */
	int mine = 0;
	for (int i = 0; m->wtype && i < u.nwp; i++)
		if (u.wp[i].addr == m->addr && u.wp[i].len == m->wlen && u.wp[i].type == m->wtype) {
			u.wp[i] = u.wp[--u.nwp];
			mine = 1;
			break;
		}
	struct trapinfo ti = { .res = ENG_TRAP };
	struct why w = { 0 }, ww = { .why = WHY_WATCH, .addr = m->addr, .wtype = m->wtype };
	uint64_t got = done, lastc = 0, j = 0, hits = 0;
	while (got < m->n) {
		struct move pre = *m;
		pre.n = got - done;
		struct user_regs_struct r;
		pt_getregs(&t->e.p, &r);
		if (!m->wtype && r.rip == m->addr) {	/* not counted: step off it */
			resume(t, &u, 1, &ti);
			if (ti.res != ENG_TRAP)
				return -1;
			struct move one = { .kind = MV_STEP, .n = 1 };
			if (sc && stop_of(&u, &ti, &w))
				add_hit(t, pre.n ? &pre : NULL, &one, &w);
			r.rip = ti.rip;
		}
		uint64_t chunk = m->n - got < COUNT_CHUNK ? m->n - got : COUNT_CHUNK;
		int fd = count_move(t, m, chunk, PERF_END);
		if (fd < 0)
			return -1;
		for (;;) {
			resume(t, &u, in_bps(&u, r.rip), &ti);
			int end = ti.res != ENG_TRAP || (ti.perf && (ti.cookie & PERF_END));
			pre.n = got - done + (end ? chunk : watch_count_read(&t->w, fd));
			for (; mine && ti.res == ENG_TRAP && hits < pre.n; hits++) {
				struct move h = *m;
				h.n = hits + 1;
				add_hit(t, NULL, &h, &ww);
			}
			if (end)
				break;
			r.rip = ti.rip;
			if (!sc || !stop_of(&u, &ti, &w))
				continue;
			/* A hit on the way: the counts so far, then the stops of
			 * u since the last of them. */
			j = pre.n == lastc ? j + 1 : 1;
			lastc = pre.n;
			struct move run = { .kind = MV_RUN, .n = j, .set = u };
			add_hit(t, pre.n ? &pre : NULL, &run, &w);
		}
		watch_count_close(&t->w, fd);
		if (ti.res != ENG_TRAP)
			return -1;
		got += chunk;
		pre.n = got - done;
		if (got < m->n)
			mark_mid(t, &pre);
	}
	return 0;
}

/* Now and then on a long move, a checkpoint: here plus m (merged into
 * here's last move when they are one move; a move made in two parts is
 * the same move). */
static void mark_mid(struct timeline *t, const struct move *m)
{
	if (now() - t->last_mark <= mark_every() || m->kind == MV_MATCH)
		return;
	struct pos *h = &t->here;
	struct move *last = h->n ? &h->mv[h->n - 1] : NULL;
	if (last && move_same(last, m)) {
		uint64_t keep = last->n;
		last->n += m->n;
		add_mark(t, 0);
		last->n = keep;
	} else {
		pos_push(h, m);
		add_mark(t, 0);
		h->n--;
	}
}

/* Make move m from here, its first `done` units already made (here's
 * last move is then that part); with sc,
 * record the stops of sc->u on the way. Returns 0, or -1 if the replay
 * came to an event or the end first (a position that does not exist). */
static int do_move(struct timeline *t, const struct move *m, uint64_t done, const struct scan *sc)
{
	struct stopset none = { 0 }, armed;
	const struct stopset *u = sc ? sc->u : &none;
	struct trapinfo ti;
	struct why w = { 0 };
	struct move hit = { 0 };
	if (m->kind == MV_STEP) {
		for (uint64_t i = done; i < m->n; i++) {
			resume(t, u, 1, &ti);
			if (ti.res != ENG_TRAP)
				return -1;
			struct move part = { .kind = MV_STEP, .n = i + 1 - done };
			if (sc && stop_of(u, &ti, &w) && (w.why == WHY_WATCH || i + 1 < m->n || !sc->final))
				add_hit(t, NULL, &part, &w);
			mark_mid(t, &part);
		}
		return 0;
	}
	if (m->kind == MV_COUNT)
		return do_count(t, m, done, sc);
	if (m->kind == MV_MATCH) {
		if (state_is(t, m))
			return 0;
		armed = *u;
		struct stopset q = { .nbp = 1, .bp = { m->regs.rip } };
		set_union(&armed, &q, u);
	} else {
		set_union(&armed, &m->set, u);
	}
	uint64_t cx = done, call = 0;
	for (;;) {
		struct user_regs_struct r;
		pt_getregs(&t->e.p, &r);
		/* From an armed address: step off it first (its int3 is not in). */
		resume(t, &armed, in_bps(&armed, r.rip), &ti);
		if (ti.res != ENG_TRAP)
			return -1;
		if (!stop_of(&armed, &ti, NULL))
			continue;
		call++;
		if (m->kind == MV_MATCH && call > MATCH_BUDGET) {
			snprintf(t->msg, sizeof t->msg, "the place of an interrupt inside a loop is too costly to find again");
			return -1;
		}
		int last;
		if (m->kind == MV_MATCH)
			last = ti.arrived && ti.rip == m->regs.rip && state_is(t, m);
		else
			last = stop_of(&m->set, &ti, NULL) && ++cx == m->n;
		if (m->kind == MV_RUN) {
			struct move part = { .kind = MV_RUN, .n = sc ? call : cx - done,
					     .set = sc ? armed : m->set };
			mark_mid(t, &part);
		}
		if (sc && stop_of(u, &ti, &w) && (w.why == WHY_WATCH || !last || !sc->final)) {
			hit.kind = MV_RUN;
			hit.n = call;
			hit.set = armed;
			add_hit(t, NULL, &hit, &w);
		}
		if (last)
			return 0;
	}
}

/* Count the hits of watchpoint wm in the thread that runs now, if it is
 * the debugged process's (closing the count fd had); u is then sc's set
 * without it, else all of sc's set. Returns the new count's fd or -1. */
static int watch_counter(struct timeline *t, const struct move *wm, struct stopset *u,
			 const struct scan *sc, int fd)
{
	watch_count_close(&t->w, fd);
	*u = *sc->u;
	fd = mine(t) ? count_move(t, wm, WATCH_CHUNK, 0) : -1;
	if (fd >= 0)
		u->nwp = 0;
	return fd;
}

static int at_end(struct timeline *t);

/* Replay events (nothing armed but sc's set) until event ev is done.
 * With one watchpoint in sc's set, the kernel counts its hits instead
 * of stopping at each (a stop costs some 50 times more), stopping only
 * every WATCH_CHUNK hits for a checkpoint; the hits are recorded as
 * counts all the same. */
static int run_events(struct timeline *t, uint64_t ev, const struct scan *sc)
{
	struct stopset none = { 0 }, u = sc ? *sc->u : none;
	struct trapinfo ti;
	struct why w = { 0 };
	struct move wm = { .kind = MV_COUNT };
	int wfd = -1, counting = sc && u.nwp == 1;
	uint64_t c = 0, counted = 0;
	if (counting) {
		wm.addr = u.wp[0].addr;
		wm.wtype = u.wp[0].type;
		wm.wlen = u.wp[0].len;
		wfd = watch_counter(t, &wm, &u, sc, -1);
	}
	int rc = 0;
	while (t->here.ev < ev) {
		if (at_end(t)) {	/* history ends before ev */
			rc = -1;
			break;
		}
		resume(t, &u, in_bps(&u, rip_now(t)), &ti);
		/* The watchpoint's hits so far come before this stop. */
		for (uint64_t k = watch_count_read(&t->w, wfd); counted < k;) {
			struct why ww = { .why = WHY_WATCH, .addr = wm.addr, .wtype = wm.wtype };
			wm.n = ++counted;
			add_hit(t, NULL, &wm, &ww);
		}
		if (ti.res == ENG_EVENT) {
			t->here.ev = t->e.cur.event;
			t->here.n = 0;
			c = counted = 0;
			maybe_mark(t);
			if (counting)	/* counts start again after each event */
				wfd = watch_counter(t, &wm, &u, sc, wfd);
		} else if (ti.res == ENG_TRAP && ti.perf) {
			wm.n = counted;
			mark_mid(t, &wm);
		} else if (ti.res == ENG_TRAP) {
			if (sc && stop_of(&u, &ti, &w)) {
				struct move hit = { .kind = MV_RUN, .n = ++c, .set = u };
				add_hit(t, NULL, &hit, &w);
			}
		} else {
			rc = -1;
			break;
		}
	}
	watch_count_close(&t->w, wfd);
	return rc;
}

/* Replay forwards from here to p, which lies ahead on here's way. With
 * sc, record sc's stops on the way. */
static int advance(struct timeline *t, const struct pos *p, const struct scan *sc)
{
	if (run_events(t, p->ev, sc) < 0) {
		snprintf(t->msg, sizeof t->msg, "history ends at event %llu, where the program exits",
			 (unsigned long long)t->here.ev);
		return -1;
	}
	for (int k = t->here.n ? t->here.n - 1 : 0; k < p->n; k++) {
		uint64_t done = 0;
		if (k < t->here.n) {	/* the last move is made in part */
			done = t->here.mv[k].n;
			if (done == p->mv[k].n)
				continue;
		}
		/* Only the stop that ends the last move is the target itself. */
		struct scan part = { sc ? sc->u : NULL, sc && sc->final && k == p->n - 1 };
		if (do_move(t, &p->mv[k], done, sc ? &part : NULL) < 0)
			goto lost;
		if (k < t->here.n)
			t->here.mv[k].n = p->mv[k].n;
		else
			pos_push(&t->here, &p->mv[k]);
	}
	return 0;
lost:
	t->here.ev = UINT64_MAX;	/* unknown: the next move starts from a checkpoint */
	t->here.n = 0;
	if (!t->msg[0])
		snprintf(t->msg, sizeof t->msg, "lost the way to event %llu (move %d); the replay is not where it was",
		 (unsigned long long)p->ev, p->n);
	return -1;
}

/* Bring the replay to p: from here if p lies ahead on its way, else from
 * the latest checkpoint before p. */
static int go_to(struct timeline *t, const struct pos *p)
{
	int i = best_mark(t, p);
	if (!pos_le(&t->here, p) || (i >= 0 && later(&t->marks[i].pos, &t->here))) {
		if (i < 0) {
			snprintf(t->msg, sizeof t->msg, "no checkpoint before event %llu", (unsigned long long)p->ev);
			return -1;
		}
		restore(t, i);
	}
	return advance(t, p, NULL);
}

/* Append m to here, merging it with the moves before where they are one. */
static void append(struct timeline *t, const struct move *m)
{
	struct pos *h = &t->here;
	struct move *last = h->n ? &h->mv[h->n - 1] : NULL;
	if (last && m->kind == MV_STEP && last->kind == MV_STEP) {
		last->n += m->n;
		return;
	}
	if (last && m->kind == MV_RUN && last->kind == MV_RUN && set_eq(&last->set, &m->set)) {
		last->n += m->n;
		return;
	}
	if (last && m->kind == MV_COUNT && last->kind == MV_COUNT && last->addr == m->addr) {
		last->n += m->n;
		return;
	}
	/* RUN(s,a) STEP(1) RUN(s,b) is RUN(s,a+b) when the step, which
	 * left a breakpoint of s, did not land on one. */
	if (last && h->n >= 2 && m->kind == MV_RUN && last->kind == MV_STEP && last->n == 1 &&
	    h->mv[h->n - 2].kind == MV_RUN && set_eq(&h->mv[h->n - 2].set, &m->set) &&
	    !in_bps(&m->set, last->land) && !m->set.nwp) {
		h->n--;
		h->mv[h->n - 1].n += m->n;
		return;
	}
	pos_push(h, m);
}

/* ---- the commands ---- */

/* REWIND_TLDEBUG=1 prints each place a command reaches, for debugging. */
void tl_show(struct timeline *t, const char *what)
{
	static int on = -1;
	if (on < 0)
		on = getenv("REWIND_TLDEBUG") != NULL;
	if (!on)
		return;
	struct user_regs_struct r;
	tl_regs(t, &r);
	fprintf(stderr, "[tl] %s: ev %llu rip %llx", what, (unsigned long long)t->here.ev,
		(unsigned long long)r.rip);
	for (int i = 0; i < t->here.n; i++)
		fprintf(stderr, " %s(%llu)", t->here.mv[i].kind == MV_STEP ? "step" :
			t->here.mv[i].kind == MV_RUN ? "run" : t->here.mv[i].kind == MV_COUNT ? "count" : "match",
			(unsigned long long)t->here.mv[i].n);
	fprintf(stderr, "\n");
}

void tl_regs(struct timeline *t, struct user_regs_struct *r)
{
	eng_regs(&t->e, r);
}

pid_t tl_regs_of(struct timeline *t, uint32_t tid, struct user_regs_struct *r)
{
	struct engine *e = &t->e;
	struct eng_task *k = eng_task_of(e, tid);
	/* A thread on its way out has no registers to show. */
	if (!k || eng_task_regs(e, k, r) < 0)
		return -1;
	return k->p.pid;
}

void tl_open(struct timeline *t, const char *dir, uint64_t ev)
{
	memset(t, 0, sizeof *t);
	/* From a tseek checkpoint, history begins there. */
	uint64_t at = ev > 1 ? eng_open_at(&t->e, dir, ev) : (eng_open(&t->e, dir), 0);
	t->e.debug = 1;
	watch_init(&t->w, &t->e);
	if (!at && eng_resume(&t->e, 0) != ENG_EVENT)
		die(EXIT_TRACE, "%s: the program did not start", dir);
	t->here.ev = t->first = t->e.cur.event;
	t->pid = t->e.tasks[0].rtgid;
	/* Breakpoints and watchpoints inside preempted stretches stop,
	 * unless REWIND_NO_REEXEC=1 asks for the states to be set. */
	t->reexec = !env_flag("REWIND_NO_REEXEC");
	t->ran = t->e.tasks[0].rtid;
	t->seen = t->e.ntasks;
	snprintf(t->exe, sizeof t->exe, "%s", t->e.exe);
	eng_ready(&t->e);
	t->pass[0] = t->pass[1] = 0;
	add_mark(t, 0);
}

int tl_follow(struct timeline *t, uint32_t pid)
{
	if (pid == t->pid)
		return 0;
	uint64_t at = eng_process_start(t->e.dir, pid);
	if (!at) {
		snprintf(t->msg, sizeof t->msg, "the trace has no process %u (tdump shows the ids)", pid);
		return -1;
	}
	t->pid = pid;
	struct pos p = { .ev = at };
	if (go_to(t, &p) < 0)
		return -1;
	struct eng_task *k = eng_task_of(&t->e, pid);
	if (!k || k->rtgid != pid) {
		snprintf(t->msg, sizeof t->msg, "%u is a thread, not a process", pid);
		return -1;
	}
	t->first = at;
	t->ran = pid;
	snprintf(t->exe, sizeof t->exe, "%s", k->exe);
	return 0;
}

void tl_close(struct timeline *t)
{
	tl_flush(t);
	while (t->nmarks)
		drop_mark(t, t->nmarks - 1);
	free(t->marks);
	for (int i = 0; i < t->capnhits; i++)
		pos_free(&t->hits[i]);
	free(t->hits);
	free(t->hitwhy);
	free(t->gaps);
	pos_free(&t->here);
	watch_free(&t->w);
	eng_close(&t->e);
}

static int at_end(struct timeline *t)
{
	const struct trace_rec *nx = eng_peek(&t->e);
	if (!nx || nx->kind == TR_EXIT)
		return 1;
	uint32_t tids[2];
	struct eng_task *k = eng_task_of(&t->e, nx->tid);
	if (!k || k->rtgid != t->pid)
		return 0;
	int live = eng_live(&t->e), last = tl_threads(t, tids, 2) == 1;
	/* The debugged process's last thread ends. With others about, its
	 * exit happens at once, registers gone: the end is before it. */
	if ((nx->kind == TR_TASKEXIT && last) ||
	    (live > 1 && nx->kind == TR_SYSCALL && (nx->flags & TRF_NORETURN) && nx->size >= 2 &&
	     (get32(nx->p) == SYS_exit_group || (get32(nx->p) == SYS_exit && last))))
		return 1;
	/* A syscall that does not return and is not an exit kills the program. */
	return nx->kind == TR_SYSCALL && (nx->flags & TRF_NORETURN) && nx->size >= 2 &&
	       get32(nx->p) != SYS_exit && get32(nx->p) != SYS_exit_group;
}

static int passes(struct timeline *t, int sig)
{
	return sig > 0 && sig < 128 && (t->pass[sig / 64] >> (sig % 64) & 1);
}

/* Whether thread pid's process has a handler for sig (SigCgt in its
 * /proc status) and sig is not a fault (those point at the code that
 * faulted, handler or not). */
static int handled(pid_t pid, int sig)
{
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGTRAP)
		return 0;
	uint64_t cgt = 0;
	pt_status_hex(pid, "SigCgt:", &cgt);
	return sig > 0 && sig <= 64 && (cgt >> (sig - 1) & 1);
}

/* After an event on a forward move: a signal gdb wants to see stops. A
 * signal the program catches goes to its handler without a stop, as in
 * rr (gdb would stop for SIGUSR1 and the like by default, and the
 * handler is where to break); a fault, or a signal it does not catch,
 * stops. */
static int event_stops(struct timeline *t, struct why *w)
{
	t->here.ev = t->e.cur.event;
	t->here.n = 0;
	t->nhits = 0;
	maybe_mark(t);
	struct eng_task *k = eng_task_of(&t->e, t->e.cur.tid);
	if (t->e.cur.kind == TR_SIGNAL && !passes(t, get32(t->e.cur.p)) && k && k->rtgid == t->pid &&
	    !handled(k->p.pid, get32(t->e.cur.p))) {
		t->ran = k->rtid;
		w->why = WHY_SIGNAL;
		w->sig = get32(t->e.cur.p);
		return 1;
	}
	return 0;
}

/* One resume of a continue with gdb's set armed. Returns 1 when the
 * replay stopped for gdb (*w says why), 0 to go on, or -1. */
static int cont1(struct timeline *t, struct why *w)
{
	if (at_end(t)) {
		w->why = WHY_END;
		return 1;
	}
	int step = in_bps(&t->user, rip_now(t));
	struct trapinfo ti;
	resume(t, &t->user, step, &ti);
	if (ti.res == ENG_EVENT)
		return event_stops(t, w);
	if (ti.res == ENG_INTR) {
		/* Ctrl-C: the place is a match of registers and memory. */
		struct move m = { .kind = MV_MATCH };
		tl_regs(t, &m.regs);
		m.regs.eflags &= ~EFLAGS_RF;
		m.hash = mem_hash(t);
		append(t, &m);
		add_mark(t, 0);
		w->why = WHY_INTR;
		return 1;
	}
	if (ti.res != ENG_TRAP) {
		if (!t->msg[0])
			snprintf(t->msg, sizeof t->msg, "the program ended unexpectedly");
		return -1;
	}
	if (!stop_of(&t->user, &ti, w) && !step)
		return 0;	/* an int3 of ours that is not gdb's */
	struct move m = { .kind = step ? MV_STEP : MV_RUN, .n = 1, .set = t->user, .land = ti.rip };
	append(t, &m);
	return w->why != 0;
}

int tl_cont(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	t->nhits = 0;
	t->continuing = 1;
	int k;
	while (!(k = cont1(t, w)))
		;
	t->continuing = 0;
	return k < 0 ? -1 : 0;
}

int tl_step(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	t->nhits = 0;
	/* The other threads run (stopping at gdb's breakpoints) until the
	 * one to step is the one that runs. */
	for (;;) {
		struct eng_task *k = t->step_tid ? eng_task_of(&t->e, t->step_tid) : NULL;
		if (mine(t) && (!k || k->rtgid != t->pid || t->e.tasks[t->e.ti].rtid == k->rtid))
			break;
		int got = cont1(t, w);
		if (got)
			return got < 0 ? -1 : 0;
	}
	for (;;) {
		if (at_end(t)) {
			w->why = WHY_END;
			return 0;
		}
		struct trapinfo ti;
		resume(t, &t->user, 1, &ti);
		if (ti.res == ENG_EVENT) {
			if (event_stops(t, w))
				return 0;
			if (t->e.cur.kind == TR_SIGNAL)
				continue;	/* passed on: step into its handler */
			w->why = WHY_STEP;
			return 0;
		}
		if (ti.res == ENG_INTR)
			continue;
		if (ti.res != ENG_TRAP) {
			if (!t->msg[0])
				snprintf(t->msg, sizeof t->msg, "the program ended unexpectedly");
			return -1;
		}
		struct move m = { .kind = MV_STEP, .n = 1, .land = ti.rip };
		append(t, &m);
		if (!stop_of(&t->user, &ti, w) || w->why != WHY_WATCH)
			w->why = WHY_STEP;
		return 0;
	}
}

/* What stops where move m ends, as breakpoints and watchpoints: a run's
 * set, an int3 where a match is, the watchpoint a count counts. */
static struct stopset end_set(const struct move *m)
{
	struct stopset s = { 0 };
	if (m->kind == MV_RUN)
		s = m->set;
	else if (m->kind == MV_MATCH)
		s.bp[s.nbp++] = m->regs.rip;
	else if (m->kind == MV_COUNT && m->wtype) {
		s.wp[0].addr = m->addr;
		s.wp[0].len = m->wlen;
		s.wp[0].type = m->wtype;
		s.nwp = 1;
	}
	return s;
}

/* Is the stop ti the one that ends move last (armed with end_set())? */
static int reached(struct timeline *t, const struct move *last, const struct trapinfo *ti)
{
	if (last->kind == MV_MATCH)
		return ti->arrived && ti->rip == last->regs.rip && state_is(t, last);
	if (last->kind == MV_COUNT && !last->wtype)
		return ti->arrived && ti->rip == last->addr;
	struct stopset s = end_set(last);
	return stop_of(&s, ti, NULL);
}

/* Single-step from q until the stop that ends move last; on it, q gets
 * the steps but one. Returns 0, 1 if not within budget steps, or -1. */
static int step_to(struct timeline *t, struct pos *q, const struct move *last, long budget)
{
	if (go_to(t, q) < 0)
		return -1;
	struct trapinfo ti;
	struct stopset at_p = end_set(last);
	for (long s = 1; s <= budget; s++) {
		resume(t, &at_p, 1, &ti);
		if (ti.res != ENG_TRAP)
			break;
		struct move one = { .kind = MV_STEP, .n = 1 };
		append(t, &one);
		if (!reached(t, last, &ti))
			continue;
		if (s > 1) {
			struct move m = { .kind = MV_STEP, .n = s - 1 };
			pos_push(q, &m);
		}
		return 0;
	}
	return 1;
}

/* Could the instruction at c, run in a copy of the replay as it is now,
 * lead here (to rip, and fire a watchpoint of set if this is one)? */
static int pred_ok(struct timeline *t, uint64_t c, const struct user_regs_struct *now_r,
		   const struct stopset *set, int watch)
{
	struct eng_snap s;
	if (snap(t, &s) < 0)
		return 0;
	struct user_regs_struct r = s.regs;
	r.rip = c;
	int ok = 0;
	if (ptrace(PTRACE_SETREGS, s.pid, 0, &r) == 0) {
		int k = watch_step_fires(&t->w, s.pid, set->wp, watch ? set->nwp : 0, &r);
		ok = k >= 0 && r.rip == now_r->rip && (!watch || k == 1);
	}
	/* The copy shares the shared mappings with the replay: undo what
	 * its step stored there. */
	eng_snap_undo(&t->e, &s);
	eng_snap_free(&s);
	return ok;
}


/* The place before p = q + last (a run to its next stop, or a match), found through the
 * instruction that leads to p: candidates are those that end where p
 * is and the calls that return past [rsp]; each is checked in a copy,
 * then by counting its executions from q in the kernel and stepping
 * once from the last. Returns 0
 * with q updated, 1 if no candidate holds, or -1. */
static int via_pred(struct timeline *t, const struct pos *p, struct pos *q, const struct move *last)
{
	if (go_to(t, p) < 0)
		return -1;
	struct user_regs_struct r;
	pt_getregs(&t->e.p, &r);
	struct stopset at_p = end_set(last);
	int watch = at_p.nwp && !in_bps(&at_p, r.rip);
	uint64_t cand[24], ret = 0;
	int nc = 0;
	for (int k = 15; k >= 1; k--)
		if (pred_ok(t, r.rip - k, &r, &at_p, watch))
			cand[nc++] = r.rip - k;
	if (pt_read(&t->e.p, r.rsp, &ret, 8) == 8 && ret > 4096)
		for (int k = 2; k <= 7; k++)
			if (pred_ok(t, ret - k, &r, &at_p, watch))
				cand[nc++] = ret - k;
	for (int i = 0; i < nc; i++) {
		if (go_to(t, q) < 0)
			return -1;
		add_mark(t, 0);	/* each candidate starts here */
		/* Count its executions up to p in the kernel, not stopping. */
		struct trapinfo ti = { .res = ENG_TRAP };
		pt_getregs(&t->e.p, &r);
		t->here.ev = UINT64_MAX;	/* the counting run is not kept */
		if (r.rip == cand[i]) {	/* not counted, as in a COUNT move */
			resume(t, &at_p, 1, &ti);
			if (ti.res != ENG_TRAP || reached(t, last, &ti))
				continue;
			r.rip = ti.rip;
		}
		int end = -1;
		if (last->kind == MV_COUNT && !last->wtype && (end = count_move(t, last, 1, PERF_END)) < 0)
			continue;
		uint64_t n = 0, stops = 0;
		pos_set(&t->here, q, q->n);
		while (ti.res == ENG_TRAP) {
			/* In chunks: the end of one is a place worth a checkpoint. */
			struct move cm = { .kind = MV_COUNT, .addr = cand[i] };
			int fd = count_move(t, &cm, COUNT_CHUNK, 0);
			if (fd < 0) {
				ti.res = ENG_EXIT;
				break;
			}
			int at = 0;
			for (;;) {
				resume(t, &at_p, in_bps(&at_p, r.rip), &ti);
				r.rip = ti.rip;
				if (ti.res != ENG_TRAP || (at = reached(t, last, &ti)) || ti.perf)
					break;
				if (++stops > STOP_BUDGET) {	/* p's own address is too hot */
					ti.res = ENG_EXIT;
					break;
				}
			}
			n += at || ti.res != ENG_TRAP ? watch_count_read(&t->w, fd) : COUNT_CHUNK;
			watch_count_close(&t->w, fd);
			if (at)
				break;
			if (ti.res == ENG_TRAP) {
				struct move part = { .kind = MV_COUNT, .n = n, .addr = cand[i] };
				mark_mid(t, &part);
				resume(t, &at_p, 1, &ti);	/* off it, as a COUNT does */
				r.rip = ti.rip;
				if (ti.res == ENG_TRAP && reached(t, last, &ti))
					break;
			}
		}
		t->here.ev = UINT64_MAX;	/* the counting run is not kept */
		watch_count_close(&t->w, end);
		if (getenv("REWIND_TLDEBUG"))
			fprintf(stderr, "[tl] candidate %llx: %llu executions\n", (unsigned long long)cand[i],
				(unsigned long long)n);
		if (ti.res != ENG_TRAP || !n)
			continue;
		struct pos x = { 0 };
		pos_set(&x, q, q->n);
		struct move m = { .kind = MV_COUNT, .n = n, .addr = cand[i] };
		pos_push(&x, &m);
		int ok = go_to(t, &x) == 0;
		if (ok) {	/* its last execution must lead to p */
			resume(t, &at_p, 1, &ti);
			struct move one = { .kind = MV_STEP, .n = 1 };
			append(t, &one);
			ok = ti.res == ENG_TRAP && reached(t, last, &ti);
		}
		if (ok)
			pos_set(q, &x, x.n);
		pos_free(&x);
		if (ok)
			return 0;
	}
	return 1;
}

/* The place one instruction before p, into *out. Returns 0, 1 if p is
 * the start of the history, -1 on failure (t->msg). */
static int back1(struct timeline *t, const struct pos *p, struct pos *out)
{
	if (p->n && t->step_tid && pos_eq(&t->here, p) &&
	    t->e.tasks[t->e.ti].rtid != t->step_tid) {
		/* Another thread runs here: the one to move last ran before
		 * this stretch. */
		struct pos start = { .ev = p->ev };
		return back1(t, &start, out);
	}
	if (p->n) {
		const struct move *last = &p->mv[p->n - 1];
		pos_set(out, p, p->n);
		if (last->kind == MV_STEP) {
			if (--out->mv[out->n - 1].n == 0)
				out->n--;
			return 0;
		}
		/* From the stop before the last one: step to it if it is
		 * near, else find the instruction that leads to it. */
		if ((last->kind == MV_RUN || last->kind == MV_COUNT) && last->n > 1)
			out->mv[out->n - 1].n--;
		else
			out->n--;
		int k = step_to(t, out, last, 256);
		/* A matched place (after an interrupt) is found again only by
		 * stopping at each arrival at its address: too slow to search. */
		if (k == 1 && last->kind != MV_MATCH)
			k = via_pred(t, p, out, last);
		if (k == 1 && last->kind != MV_MATCH)
			k = step_to(t, out, last, STEP_BUDGET);
		if (k == 1 && last->kind == MV_MATCH)
			snprintf(t->msg, sizeof t->msg,
				 "rewind cannot step back from the place an interrupt stopped at; "
				 "step forwards first, or reverse-continue to a breakpoint");
		else if (k == 1)
			snprintf(t->msg, sizeof t->msg,
				 "the instruction before this one is more than %d instructions after the last "
				 "place rewind can count from; it cannot step back there", STEP_BUDGET);
		return k == 1 ? -1 : k;
	}
	if (p->ev <= t->first)
		return 1;
	/* p is just after an event: find the instruction that made it. */
	if (go_to(t, p) < 0)
		return -1;
	const struct trace_rec *c = &t->e.cur;
	int kind = c->kind;
	struct user_regs_struct r;
	struct eng_task *k = eng_task_of(&t->e, c->tid);
	uint64_t at;
	/* No instruction of the thread moved made this event: an
	 * asynchronous signal, the end of a call that blocked, a thread's
	 * exit or preemption (its state was made, not run), another
	 * thread's or process's event. The one before it did. */
	if ((kind == TR_SIGNAL && (get32(c->p + 4) & TRS_ASYNC)) || kind == TR_SYSRET ||
	    kind == TR_TASKEXIT || kind == TR_PREEMPT || !k || k->rtgid != t->pid ||
	    (t->step_tid && c->tid != t->step_tid)) {
		struct pos prev = { .ev = p->ev - 1 };
		return back1(t, &prev, out);
	}
	/* (A vfork parent is in the kernel here, its registers kept.) */
	if (eng_task_regs(&t->e, k, &r) < 0) {
		snprintf(t->msg, sizeof t->msg, "thread %u has no registers to step back from", c->tid);
		return -1;
	}
	if (kind == TR_SIGNAL) {
		at = r.rip;	/* the faulting instruction, not run */
	} else if (c->kind == TR_RDTSC) {
		at = get64(c->p);
	} else if (c->kind == TR_SYSCALL && get32(c->p) != SYS_execve && get32(c->p) != SYS_execveat) {
		at = r.rip - 2;
	} else {
		return 1;	/* no way back over an execve */
	}
	/* Count the arrivals at that instruction in the interval before. */
	struct pos prev = { .ev = p->ev - 1 };
	if (go_to(t, &prev) < 0)
		return -1;
	struct stopset s = { .nbp = 1, .bp = { at } };
	struct trapinfo ti;
	uint64_t n = 0;
	for (;;) {
		pt_getregs(&t->e.p, &r);
		resume(t, &s, r.rip == at, &ti);
		if (ti.res == ENG_EVENT)
			break;
		if (ti.res != ENG_TRAP) {
			t->here.ev = UINT64_MAX;
			return -1;
		}
		n += stop_of(&s, &ti, NULL);
	}
	t->here.ev = t->e.cur.event;
	t->here.n = 0;
	out->ev = p->ev - 1;
	out->n = 0;
	if (n) {
		struct move m = { .kind = MV_RUN, .n = n, .set = s };
		pos_push(out, &m);
	}
	if (kind != TR_SIGNAL)
		return 0;
	/* Before a fault: one more back from the faulting instruction. */
	struct pos at_fault = { 0 };
	pos_set(&at_fault, out, out->n);
	int got = back1(t, &at_fault, out);
	pos_free(&at_fault);
	return got;
}

int tl_rstep(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	add_mark(t, 0);	/* to come back to at once if the search fails */
	struct pos target = { 0 }, from = { 0 };
	pos_set(&from, &t->here, t->here.n);
	int k = back1(t, &from, &target);
	if (k == 0)
		k = go_to(t, &target);
	/* The place is before the stepped thread's instruction, which may
	 * come first in its stretch: the thread that ran last is another. */
	struct eng_task *st = t->step_tid ? eng_task_of(&t->e, t->step_tid) : NULL;
	if (k == 0 && st && st->rtgid == t->pid)
		t->ran = t->step_tid;
	if (k != 0 && go_to(t, &from) < 0)
		k = -1;
	if (k == 1)
		w->why = WHY_BEGIN;
	else
		w->why = WHY_STEP;
	pos_free(&target);
	pos_free(&from);
	t->nhits = 0;
	return k < 0 ? -1 : 0;
}

/* Go to the hit found by the last search at index i, and say why. */
static int go_hit(struct timeline *t, int i, struct why *w)
{
	*w = t->hitwhy[i];
	struct pos target = { 0 };
	int k = 0;
	if (w->why == WHY_WATCH) {
		/* Backwards, a watchpoint stops before the write. */
		k = back1(t, &t->hits[i], &target);
	} else {
		pos_set(&target, &t->hits[i], t->hits[i].n);
	}
	if (k == 0)
		k = go_to(t, &target);
	pos_free(&target);
	t->hitat = i;
	return k;
}

int tl_rcont(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	add_mark(t, 0);	/* to come back to at once if the search fails */
	/* Searched before with the same set, and at one of its hits: the
	 * one before is known. */
	if (t->nhits && set_eq(&t->hitset, &t->user) && t->hitat > 0 && t->hitat < t->nhits) {
		int k = go_hit(t, t->hitat - 1, w);
		return k < 0 ? -1 : 0;
	}
	struct pos target = { 0 }, from = { 0 }, start = { 0 };
	pos_set(&target, &t->here, t->here.n);
	pos_set(&from, &t->here, t->here.n);
	t->hitset = t->user;
	int rc = 0;
	for (;;) {
		for (int i = 0; i < t->nhits; i++)
			pos_free(&t->hits[i]);
		t->nhits = 0;
		/* The latest checkpoint strictly before the target. */
		int m = -1;
		for (int i = 0; i < t->nmarks; i++)
			if (pos_le(&t->marks[i].pos, &target) && !pos_eq(&t->marks[i].pos, &target) &&
			    (m < 0 || later(&t->marks[i].pos, &t->marks[m].pos)))
				m = i;
		if (m < 0) {	/* at the start of the history */
			rc = go_to(t, &target);
			w->why = WHY_BEGIN;
			break;
		}
		/* The search may add and thin checkpoints: keep m's place. */
		pos_set(&start, &t->marks[m].pos, t->marks[m].pos.n);
		restore(t, m);
		/* Only the first window ends where gdb is: a later one ends
		 * where the window after it began, and an arrival there
		 * belongs to it (the later window saw none at its start). */
		struct scan sc = { &t->user, pos_eq(&target, &from) };
		if (advance(t, &target, &sc) < 0) {
			rc = -1;
			break;
		}
		if (t->nhits && t->hits[t->nhits - 1].ev >= t->first) {
			rc = go_hit(t, t->nhits - 1, w);
			break;
		}
		if (start.ev < t->first) {	/* history begins after the checkpoint */
			struct pos f = { .ev = t->first };
			rc = go_to(t, &f);
			w->why = WHY_BEGIN;
			break;
		}
		pos_set(&target, &start, start.n);
	}
	if (rc < 0)
		go_to(t, &from);
	pos_free(&target);
	pos_free(&from);
	pos_free(&start);
	return rc < 0 ? -1 : 0;
}

int tl_goto_event(struct timeline *t, uint64_t ev)
{
	t->msg[0] = 0;
	struct pos p = { .ev = ev < t->first ? t->first : ev };
	int k = go_to(t, &p);
	t->nhits = 0;
	if (k < 0 && t->here.ev < p.ev && at_end(t))
		return 1;	/* at the end, which t->msg names */
	return k;
}

int tl_checkpoint(struct timeline *t)
{
	int id = ++t->nextid;
	int got = add_mark(t, id);
	if (got < 0) {
		snprintf(t->msg, sizeof t->msg, "%s", at_end(t) ? "no checkpoint at the end of history: the program is exiting; go back first"
			 : t->e.pending_sig || t->e.raised ? "cannot make a checkpoint here (a signal is being delivered); step first"
			 : "cannot make a checkpoint here (a thread is where no copy can be made: a clone, vfork or execve under way, or on its way out); step or continue first");
		t->nextid--;
		return -1;
	}
	if (got != id)
		t->nextid--;
	return got;
}

long tl_mark_kib(struct timeline *t)
{
	long total = 0;
	for (int i = 0; i < t->nmarks; i++) {
		char path[64], line[256];
		snprintf(path, sizeof path, "/proc/%d/smaps_rollup", t->marks[i].snap.pid);
		FILE *f = fopen(path, "re");
		long kb;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "Pss: %ld kB", &kb) == 1)
				total += kb;
		if (f)
			fclose(f);
	}
	return total;
}

int tl_restart(struct timeline *t, int id)
{
	for (int i = 0; i < t->nmarks; i++)
		if (t->marks[i].id == id && id > 0) {
			restore(t, i);
			t->nhits = 0;
			return 0;
		}
	snprintf(t->msg, sizeof t->msg, "no checkpoint %d", id);
	return -1;
}
