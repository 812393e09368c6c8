/* count.c: moves by counting (executions of an instruction, or hits of a
 * watchpoint) in the kernel instead of stopping at each, in chunks with
 * checkpoints between them. */
#include "tlpriv.h"

#include <stdio.h>

#define WATCH_CHUNK 100		/* watchpoint hits counted between checkpoints */

/* Count what COUNT move m counts (executions of an instruction, counted
 * before it runs, or hits of a watchpoint, counted after), signalling at
 * every period-th with cookie (watch.h). Returns a handle, or -1 with
 * t->msg. */
int count_move(struct timeline *t, const struct move *m, uint64_t period, uint64_t cookie)
{
	int h = watch_count_open(&t->w, m->addr, m->wtype, m->wlen, period, cookie);
	if (h < 0)
		snprintf(t->msg, sizeof t->msg, "%s", t->w.msg);
	return h;
}

/* Make a COUNT move (see do_move), in chunks with a checkpoint now and
 * then between them. */
int count_make(struct timeline *t, const struct move *m, uint64_t done, const struct scan *sc)
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
			tl_resume(t, &u, 1, &ti);
			if (ti.res != ENG_TRAP)
				return -1;
			struct move one = { .kind = MV_STEP, .n = 1 };
			if (sc && tl_stop_of(&u, &ti, &w))
				hit_add(t, pre.n ? &pre : NULL, &one, &w);
			r.rip = ti.rip;
		}
		uint64_t chunk = m->n - got < COUNT_CHUNK ? m->n - got : COUNT_CHUNK;
		int fd = count_move(t, m, chunk, PERF_END);
		if (fd < 0)
			return -1;
		for (;;) {
			tl_resume(t, &u, stopset_has_bp(&u, r.rip), &ti);
			int end = ti.res != ENG_TRAP || (ti.perf && (ti.cookie & PERF_END));
			pre.n = got - done + (end ? chunk : watch_count_read(&t->w, fd));
			for (; mine && ti.res == ENG_TRAP && hits < pre.n; hits++) {
				struct move h = *m;
				h.n = hits + 1;
				hit_add(t, NULL, &h, &ww);
			}
			if (end)
				break;
			r.rip = ti.rip;
			if (!sc || !tl_stop_of(&u, &ti, &w))
				continue;
			/* A hit on the way: the counts so far, then the stops of
			 * u since the last of them. */
			j = pre.n == lastc ? j + 1 : 1;
			lastc = pre.n;
			struct move run = { .kind = MV_RUN, .n = j, .set = u };
			hit_add(t, pre.n ? &pre : NULL, &run, &w);
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

/* Count the hits of watchpoint wm in the thread that runs now, if it is
 * the debugged process's (closing the count fd had); u is then sc's set
 * without it, else all of sc's set. Returns the new count's fd or -1. */
int count_watch(struct timeline *t, const struct move *wm, struct stopset *u,
			 const struct scan *sc, int fd)
{
	watch_count_close(&t->w, fd);
	*u = *sc->u;
	fd = tl_mine(t) ? count_move(t, wm, WATCH_CHUNK, 0) : -1;
	if (fd >= 0)
		u->nwp = 0;
	return fd;
}
