/* forward.c: gdb's continue and step: replaying forwards with gdb's
 * breakpoints and watchpoints armed until one of them, a signal gdb wants
 * to see, or the end of history stops it. */
#include "tlpriv.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

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
	mark_maybe(t);
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
	if (tl_at_end(t)) {
		w->why = WHY_END;
		return 1;
	}
	int step = stopset_has_bp(&t->user, tl_rip_now(t));
	struct trapinfo ti;
	tl_resume(t, &t->user, step, &ti);
	if (ti.res == ENG_EVENT)
		return event_stops(t, w);
	if (ti.res == ENG_INTR) {
		/* Ctrl-C: the place is a match of registers and memory. */
		struct move m = { .kind = MV_MATCH };
		tl_regs(t, &m.regs);
		m.regs.eflags &= ~EFLAGS_RF;
		m.hash = tl_mem_hash(t);
		tl_append(t, &m);
		mark_add(t, 0);
		w->why = WHY_INTR;
		return 1;
	}
	if (ti.res != ENG_TRAP) {
		if (!t->msg[0])
			snprintf(t->msg, sizeof t->msg, "the program ended unexpectedly");
		return -1;
	}
	if (!tl_stop_of(&t->user, &ti, w) && !step)
		return 0;	/* an int3 of ours that is not gdb's */
	struct move m = { .kind = step ? MV_STEP : MV_RUN, .n = 1, .set = t->user, .land = ti.rip };
	tl_append(t, &m);
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
		if (tl_mine(t) && (!k || k->rtgid != t->pid || t->e.tasks[t->e.ti].rtid == k->rtid))
			break;
		int got = cont1(t, w);
		if (got)
			return got < 0 ? -1 : 0;
	}
	for (;;) {
		if (tl_at_end(t)) {
			w->why = WHY_END;
			return 0;
		}
		struct trapinfo ti;
		tl_resume(t, &t->user, 1, &ti);
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
		tl_append(t, &m);
		if (!tl_stop_of(&t->user, &ti, w) || w->why != WHY_WATCH)
			w->why = WHY_STEP;
		return 0;
	}
}
