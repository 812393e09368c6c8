/* moves.c: replaying forwards from here to a later position, move by
 * move, and recording on the way the stops a backward search is after. */
#include "tlpriv.h"
#include "maps.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#define MATCH_BUDGET 200000	/* stops to find an interrupt's place again */

uint64_t tl_mem_hash(struct timeline *t)
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

int tl_state_is(struct timeline *t, const struct move *m)
{
	struct user_regs_struct r;
	tl_regs(t, &r);
	r.eflags &= ~EFLAGS_RF;
	return !memcmp(&r, &m->regs, sizeof r) && tl_mem_hash(t) == m->hash;
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
			tl_resume(t, u, 1, &ti);
			if (ti.res != ENG_TRAP)
				return -1;
			struct move part = { .kind = MV_STEP, .n = i + 1 - done };
			if (sc && tl_stop_of(u, &ti, &w) && (w.why == WHY_WATCH || i + 1 < m->n || !sc->final))
				hit_add(t, NULL, &part, &w);
			mark_mid(t, &part);
		}
		return 0;
	}
	if (m->kind == MV_COUNT)
		return count_make(t, m, done, sc);
	if (m->kind == MV_MATCH) {
		if (tl_state_is(t, m))
			return 0;
		armed = *u;
		struct stopset q = { .nbp = 1, .bp = { m->regs.rip } };
		stopset_union(&armed, &q, u);
	} else {
		stopset_union(&armed, &m->set, u);
	}
	uint64_t cx = done, call = 0;
	for (;;) {
		struct user_regs_struct r;
		pt_getregs(&t->e.p, &r);
		/* From an armed address: step off it first (its int3 is not in). */
		tl_resume(t, &armed, stopset_has_bp(&armed, r.rip), &ti);
		if (ti.res != ENG_TRAP)
			return -1;
		if (!tl_stop_of(&armed, &ti, NULL))
			continue;
		call++;
		if (m->kind == MV_MATCH && call > MATCH_BUDGET) {
			snprintf(t->msg, sizeof t->msg, "the place of an interrupt inside a loop is too costly to find again");
			return -1;
		}
		int last;
		if (m->kind == MV_MATCH)
			last = ti.arrived && ti.rip == m->regs.rip && tl_state_is(t, m);
		else
			last = tl_stop_of(&m->set, &ti, NULL) && ++cx == m->n;
		if (m->kind == MV_RUN) {
			struct move part = { .kind = MV_RUN, .n = sc ? call : cx - done,
					     .set = sc ? armed : m->set };
			mark_mid(t, &part);
		}
		if (sc && tl_stop_of(u, &ti, &w) && (w.why == WHY_WATCH || !last || !sc->final)) {
			hit.kind = MV_RUN;
			hit.n = call;
			hit.set = armed;
			hit_add(t, NULL, &hit, &w);
		}
		if (last)
			return 0;
	}
}

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
		wfd = count_watch(t, &wm, &u, sc, -1);
	}
	int rc = 0;
	while (t->here.ev < ev) {
		if (tl_at_end(t)) {	/* history ends before ev */
			rc = -1;
			break;
		}
		tl_resume(t, &u, stopset_has_bp(&u, tl_rip_now(t)), &ti);
		/* The watchpoint's hits so far come before this stop. */
		for (uint64_t k = watch_count_read(&t->w, wfd); counted < k;) {
			struct why ww = { .why = WHY_WATCH, .addr = wm.addr, .wtype = wm.wtype };
			wm.n = ++counted;
			hit_add(t, NULL, &wm, &ww);
		}
		if (ti.res == ENG_EVENT) {
			t->here.ev = t->e.cur.event;
			t->here.n = 0;
			c = counted = 0;
			mark_maybe(t);
			if (counting)	/* counts start again after each event */
				wfd = count_watch(t, &wm, &u, sc, wfd);
		} else if (ti.res == ENG_TRAP && ti.perf) {
			wm.n = counted;
			mark_mid(t, &wm);
		} else if (ti.res == ENG_TRAP) {
			if (sc && tl_stop_of(&u, &ti, &w)) {
				struct move hit = { .kind = MV_RUN, .n = ++c, .set = u };
				hit_add(t, NULL, &hit, &w);
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
int tl_advance(struct timeline *t, const struct tl_pos *p, const struct scan *sc)
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
			tlpos_push(&t->here, &p->mv[k]);
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
int tl_go_to(struct timeline *t, const struct tl_pos *p)
{
	int i = mark_best(t, p);
	if (!tlpos_le(&t->here, p) || (i >= 0 && tlpos_later(&t->marks[i].pos, &t->here))) {
		if (i < 0) {
			snprintf(t->msg, sizeof t->msg, "no checkpoint before event %llu", (unsigned long long)p->ev);
			return -1;
		}
		mark_restore(t, i);
	}
	return tl_advance(t, p, NULL);
}

/* Append m to here, merging it with the moves before where they are one. */
void tl_append(struct timeline *t, const struct move *m)
{
	struct tl_pos *h = &t->here;
	struct move *last = h->n ? &h->mv[h->n - 1] : NULL;
	if (last && m->kind == MV_STEP && last->kind == MV_STEP) {
		last->n += m->n;
		return;
	}
	if (last && m->kind == MV_RUN && last->kind == MV_RUN && stopset_eq(&last->set, &m->set)) {
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
	    h->mv[h->n - 2].kind == MV_RUN && stopset_eq(&h->mv[h->n - 2].set, &m->set) &&
	    !stopset_has_bp(&m->set, last->land) && !m->set.nwp) {
		h->n--;
		h->mv[h->n - 1].n += m->n;
		return;
	}
	tlpos_push(h, m);
}
