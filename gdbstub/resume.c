/* resume.c: one resume of the replay (a step or a continue) with
 * breakpoints and watchpoints armed, and what stopped it. */
#include "tlpriv.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* What to arm for a resume of the thread that runs now with s, into
 * *armed: for the debugged process's (my), s plus the watch module's and
 * the engine's own int3s, and whether a preempted stretch is run again;
 * for another process's, nothing. Returns the set gdb's stops are judged
 * by: s, or an empty one. */
static const struct stopset *arming(struct timeline *t, const struct stopset *s, int step, int my,
				    struct stopset *armed)
{
	struct engine *e = &t->e;
	static const struct stopset none;
	*armed = none;
	if (my) {
		uint64_t a[WATCH_NCOUNT + 1];
		*armed = *s;
		int n = watch_bps(&t->w, a, WATCH_NCOUNT), counting = 0;
		for (int i = 0; i < WATCH_NCOUNT; i++)
			counting |= t->w.c[i].used;
		/* A preempted stretch is run again only when something could
		 * stop in it: it ends in the same state either way. Every
		 * move inside an event's interval arms something or steps, so
		 * the places inside a stretch are always reached the same
		 * way. The thread then runs to the preemption's place, an
		 * int3 hidden from gdb (engine.h). */
		eng_set_reexec(e, t->reexec && (step || n || s->nbp || s->nwp || counting) ? t->pid : 0);
		if ((a[n] = eng_rematch_rip(e)))
			n++;
		for (int i = 0; i < n; i++)
			if (!stopset_has_bp(armed, a[i]) && armed->nbp < TL_MAXBP)
				armed->bp[armed->nbp++] = a[i];
		t->ran = e->tasks[e->ti].rtid;
		return s;
	}
	/* Another process: nothing armed, and no int3 in memory it may
	 * share (a vfork child runs in its parent's). */
	tl_flush(t);
	eng_set_reexec(e, 0);
	return &none;
}

/* Resume once (step or continue) with s armed; int3s are not put at rip,
 * so a continue from a breakpoint's address must step first. Stops of
 * the watch module's own (a fault on a protected page, a count by stops
 * that does not signal) are gone through here; res 0 is a failure
 * (t->msg). */
void tl_resume(struct timeline *t, const struct stopset *s, int step, struct trapinfo *ti)
{
	struct engine *e = &t->e;
	struct user_regs_struct r;
	struct stopset armed;
	struct watch_stop ws;
	int my = tl_mine(t);
	memset(ti, 0, sizeof *ti);
	s = arming(t, s, step, my, &armed);
	for (int first = 1, keep = 0;; first = keep, keep = 0) {
		uint64_t rip = tl_rip_now(t);
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
		int st = my ? watch_step(&t->w, (first && step) || stopset_has_bp(&armed, rip)) : step;
		ti->res = eng_resume(e, st);
		if (ti->res == ENG_AGAIN) {	/* a call rec let through: arm again */
			keep = first;
			continue;
		}
		if (ti->res == ENG_TRAP && eng_count_trapped(e)) {
			/* At a preemption's count: now the int3 at its rip. */
			uint64_t a = eng_rematch_rip(e);
			if (a && !stopset_has_bp(&armed, a) && armed.nbp < TL_MAXBP)
				armed.bp[armed.nbp++] = a;
			if (!st)
				continue;
			/* A step that took the counted edge ends on its target. */
		}
		if (ti->res == ENG_EVENT)
			gap_note(t);
		if (ti->res == ENG_EVENT) {	/* the event may have remapped code */
			int3_recheck(t);
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
		ti->arrived = hit3 || step || (st && stopset_has_bp(&armed, r.rip)) || (ws.counted && !ws.count_watch);
		ti->perf = ws.counted;
		ti->cookie = ws.cookie;
		for (int i = 0; i < ws.nw; i++) {
			ti->waddr[ti->nw] = ws.w[i].addr;
			ti->wlen[ti->nw] = ws.w[i].len;
			ti->wtype[ti->nw++] = ws.w[i].type;
		}
		if (!my || step || ti->nw || ti->perf || (ti->arrived && stopset_has_bp(s, r.rip)) ||
		    (!hit3 && !st))
			return;
	}
fail:
	snprintf(t->msg, sizeof t->msg, "%s", t->w.msg);
	ti->res = 0;
}

/* Did the stop belong to set s? Fills *w with why, if given. */
int tl_stop_of(const struct stopset *s, const struct trapinfo *ti, struct why *w)
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
	if (ti->arrived && stopset_has_bp(s, ti->rip)) {
		if (w)
			w->why = WHY_BP;
		return 1;
	}
	return 0;
}
