/* reverse.c: gdb's reverse-stepi and reverse-continue. Going back is going
 * forwards again from an earlier checkpoint: to the instruction before a
 * place, or to the last stop of gdb's set before it. */
#include "tlpriv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#define STEP_BUDGET 100000	/* single steps one reverse-stepi may take */
#define STOP_BUDGET 20000	/* and stops on the way to a matched place */

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
		return ti->arrived && ti->rip == last->regs.rip && tl_state_is(t, last);
	if (last->kind == MV_COUNT && !last->wtype)
		return ti->arrived && ti->rip == last->addr;
	struct stopset s = end_set(last);
	return tl_stop_of(&s, ti, NULL);
}

/* Single-step from q until the stop that ends move last; on it, q gets
 * the steps but one. Returns 0, 1 if not within budget steps, or -1. */
static int step_to(struct timeline *t, struct tl_pos *q, const struct move *last, long budget)
{
	if (tl_go_to(t, q) < 0)
		return -1;
	struct trapinfo ti;
	struct stopset at_p = end_set(last);
	for (long s = 1; s <= budget; s++) {
		tl_resume(t, &at_p, 1, &ti);
		if (ti.res != ENG_TRAP)
			break;
		struct move one = { .kind = MV_STEP, .n = 1 };
		tl_append(t, &one);
		if (!reached(t, last, &ti))
			continue;
		if (s > 1) {
			struct move m = { .kind = MV_STEP, .n = s - 1 };
			tlpos_push(q, &m);
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
	if (mark_snap(t, &s) < 0)
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

/* Count candidate c's executions from q (where the replay is) up to p,
 * the stop that ends move last (armed as at_p), in the kernel, not
 * stopping at each; the counting run is not kept. Returns how many, or 0
 * if c does not lead there or the count failed. */
static uint64_t cand_count(struct timeline *t, const struct tl_pos *q, const struct move *last,
			   const struct stopset *at_p, uint64_t c)
{
	mark_add(t, 0);	/* each candidate starts here */
	struct trapinfo ti = { .res = ENG_TRAP };
	struct user_regs_struct r;
	pt_getregs(&t->e.p, &r);
	t->here.ev = UINT64_MAX;	/* the counting run is not kept */
	if (r.rip == c) {	/* not counted, as in a COUNT move */
		tl_resume(t, at_p, 1, &ti);
		if (ti.res != ENG_TRAP || reached(t, last, &ti))
			return 0;
		r.rip = ti.rip;
	}
	int end = -1;
	if (last->kind == MV_COUNT && !last->wtype && (end = count_move(t, last, 1, PERF_END)) < 0)
		return 0;
	uint64_t n = 0, stops = 0;
	tlpos_set(&t->here, q, q->n);
	while (ti.res == ENG_TRAP) {
		/* In chunks: the end of one is a place worth a checkpoint. */
		struct move cm = { .kind = MV_COUNT, .addr = c };
		int fd = count_move(t, &cm, COUNT_CHUNK, 0);
		if (fd < 0) {
			ti.res = ENG_EXIT;
			break;
		}
		int at = 0;
		for (;;) {
			tl_resume(t, at_p, stopset_has_bp(at_p, r.rip), &ti);
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
			struct move part = { .kind = MV_COUNT, .n = n, .addr = c };
			mark_mid(t, &part);
			tl_resume(t, at_p, 1, &ti);	/* off it, as a COUNT does */
			r.rip = ti.rip;
			if (ti.res == ENG_TRAP && reached(t, last, &ti))
				break;
		}
	}
	t->here.ev = UINT64_MAX;	/* the counting run is not kept */
	watch_count_close(&t->w, end);
	if (getenv("REWIND_TLDEBUG"))
		fprintf(stderr, "[tl] candidate %llx: %llu executions\n", (unsigned long long)c,
			(unsigned long long)n);
	return ti.res == ENG_TRAP ? n : 0;
}

/* Do n executions of c from q, then one step, reach p, the stop that
 * ends move last (armed as at_p)? If so, q gets the executions. */
static int cand_leads(struct timeline *t, struct tl_pos *q, const struct move *last,
		      const struct stopset *at_p, uint64_t c, uint64_t n)
{
	struct trapinfo ti;
	struct tl_pos x = { 0 };
	tlpos_set(&x, q, q->n);
	struct move m = { .kind = MV_COUNT, .n = n, .addr = c };
	tlpos_push(&x, &m);
	int ok = tl_go_to(t, &x) == 0;
	if (ok) {	/* its last execution must lead to p */
		tl_resume(t, at_p, 1, &ti);
		struct move one = { .kind = MV_STEP, .n = 1 };
		tl_append(t, &one);
		ok = ti.res == ENG_TRAP && reached(t, last, &ti);
	}
	if (ok)
		tlpos_set(q, &x, x.n);
	tlpos_free(&x);
	return ok;
}

/* The place before p = q + last (a run to its next stop, or a match), found through the
 * instruction that leads to p: candidates are those that end where p
 * is and the calls that return past [rsp]; each is checked in a copy,
 * then by counting its executions from q in the kernel and stepping
 * once from the last. Returns 0
 * with q updated, 1 if no candidate holds, or -1. */
static int via_pred(struct timeline *t, const struct tl_pos *p, struct tl_pos *q, const struct move *last)
{
	if (tl_go_to(t, p) < 0)
		return -1;
	struct user_regs_struct r;
	pt_getregs(&t->e.p, &r);
	struct stopset at_p = end_set(last);
	int watch = at_p.nwp && !stopset_has_bp(&at_p, r.rip);
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
		if (tl_go_to(t, q) < 0)
			return -1;
		uint64_t n = cand_count(t, q, last, &at_p, cand[i]);
		if (n && cand_leads(t, q, last, &at_p, cand[i], n))
			return 0;
	}
	return 1;
}

static int back1(struct timeline *t, const struct tl_pos *p, struct tl_pos *out);

/* The place one instruction before p, which has moves after its event,
 * into *out. Returns 0 or -1 (t->msg). */
static int back_in_interval(struct timeline *t, const struct tl_pos *p, struct tl_pos *out)
{
	const struct move *last = &p->mv[p->n - 1];
	tlpos_set(out, p, p->n);
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

/* Into *out, the last arrival at instruction at in the interval before
 * p's event (that interval's start if there is none). Returns 0 or -1. */
static int last_arrival(struct timeline *t, const struct tl_pos *p, uint64_t at, struct tl_pos *out)
{
	struct user_regs_struct r;
	struct tl_pos prev = { .ev = p->ev - 1 };
	if (tl_go_to(t, &prev) < 0)
		return -1;
	struct stopset s = { .nbp = 1, .bp = { at } };
	struct trapinfo ti;
	uint64_t n = 0;
	for (;;) {
		pt_getregs(&t->e.p, &r);
		tl_resume(t, &s, r.rip == at, &ti);
		if (ti.res == ENG_EVENT)
			break;
		if (ti.res != ENG_TRAP) {
			t->here.ev = UINT64_MAX;
			return -1;
		}
		n += tl_stop_of(&s, &ti, NULL);
	}
	t->here.ev = t->e.cur.event;
	t->here.n = 0;
	out->ev = p->ev - 1;
	out->n = 0;
	if (n) {
		struct move m = { .kind = MV_RUN, .n = n, .set = s };
		tlpos_push(out, &m);
	}
	return 0;
}

/* The place one instruction before p, which is just after its event: the
 * instruction that made the event. Returns 0, 1 if there is none to go
 * back to (an execve), or -1 (t->msg). */
static int back_over_event(struct timeline *t, const struct tl_pos *p, struct tl_pos *out)
{
	if (tl_go_to(t, p) < 0)
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
		struct tl_pos prev = { .ev = p->ev - 1 };
		return back1(t, &prev, out);
	}
	/* (A vfork parent is in the kernel here, its registers kept.) */
	if (eng_task_regs(&t->e, k, &r) < 0) {
		snprintf(t->msg, sizeof t->msg, "thread %u has no registers to step back from", c->tid);
		return -1;
	}
	if (kind == TR_SIGNAL) {
		at = r.rip;	/* the faulting instruction, not run */
	} else if (c->kind == TR_RDTSC || c->kind == TR_CPUID) {
		at = get64(c->p);
	} else if (c->kind == TR_SYSCALL && get32(c->p) != SYS_execve && get32(c->p) != SYS_execveat) {
		at = r.rip - 2;
	} else {
		return 1;	/* no way back over an execve */
	}
	/* Count the arrivals at that instruction in the interval before. */
	if (last_arrival(t, p, at, out) < 0)
		return -1;
	if (kind != TR_SIGNAL)
		return 0;
	/* Before a fault: one more back from the faulting instruction. */
	struct tl_pos at_fault = { 0 };
	tlpos_set(&at_fault, out, out->n);
	int got = back1(t, &at_fault, out);
	tlpos_free(&at_fault);
	return got;
}

/* The place one instruction before p, into *out. Returns 0, 1 if p is
 * the start of the history, -1 on failure (t->msg). */
static int back1(struct timeline *t, const struct tl_pos *p, struct tl_pos *out)
{
	if (p->n && t->step_tid && tlpos_eq(&t->here, p) &&
	    t->e.tasks[t->e.ti].rtid != t->step_tid) {
		/* Another thread runs here: the one to move last ran before
		 * this stretch. */
		struct tl_pos start = { .ev = p->ev };
		return back1(t, &start, out);
	}
	if (p->n)
		return back_in_interval(t, p, out);
	if (p->ev <= t->first)
		return 1;
	return back_over_event(t, p, out);
}

int tl_rstep(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	mark_add(t, 0);	/* to come back to at once if the search fails */
	struct tl_pos target = { 0 }, from = { 0 };
	tlpos_set(&from, &t->here, t->here.n);
	int k = back1(t, &from, &target);
	if (k == 0)
		k = tl_go_to(t, &target);
	/* The place is before the stepped thread's instruction, which may
	 * come first in its stretch: the thread that ran last is another. */
	struct eng_task *st = t->step_tid ? eng_task_of(&t->e, t->step_tid) : NULL;
	if (k == 0 && st && st->rtgid == t->pid)
		t->ran = t->step_tid;
	if (k != 0 && tl_go_to(t, &from) < 0)
		k = -1;
	if (k == 1)
		w->why = WHY_BEGIN;
	else
		w->why = WHY_STEP;
	tlpos_free(&target);
	tlpos_free(&from);
	t->nhits = 0;
	return k < 0 ? -1 : 0;
}

/* Go to the hit found by the last search at index i, and say why. */
static int go_hit(struct timeline *t, int i, struct why *w)
{
	*w = t->hitwhy[i];
	struct tl_pos target = { 0 };
	int k = 0;
	if (w->why == WHY_WATCH) {
		/* Backwards, a watchpoint stops before the write. */
		k = back1(t, &t->hits[i], &target);
	} else {
		tlpos_set(&target, &t->hits[i], t->hits[i].n);
	}
	if (k == 0)
		k = tl_go_to(t, &target);
	tlpos_free(&target);
	t->hitat = i;
	return k;
}

int tl_rcont(struct timeline *t, struct why *w)
{
	t->msg[0] = 0;
	memset(w, 0, sizeof *w);
	mark_add(t, 0);	/* to come back to at once if the search fails */
	/* Searched before with the same set, and at one of its hits: the
	 * one before is known. */
	if (t->nhits && stopset_eq(&t->hitset, &t->user) && t->hitat > 0 && t->hitat < t->nhits) {
		int k = go_hit(t, t->hitat - 1, w);
		return k < 0 ? -1 : 0;
	}
	struct tl_pos target = { 0 }, from = { 0 }, start = { 0 };
	tlpos_set(&target, &t->here, t->here.n);
	tlpos_set(&from, &t->here, t->here.n);
	t->hitset = t->user;
	int rc = 0;
	for (;;) {
		for (int i = 0; i < t->nhits; i++)
			tlpos_free(&t->hits[i]);
		t->nhits = 0;
		/* The latest checkpoint strictly before the target. */
		int m = -1;
		for (int i = 0; i < t->nmarks; i++)
			if (tlpos_le(&t->marks[i].pos, &target) && !tlpos_eq(&t->marks[i].pos, &target) &&
			    (m < 0 || tlpos_later(&t->marks[i].pos, &t->marks[m].pos)))
				m = i;
		if (m < 0) {	/* at the start of the history */
			rc = tl_go_to(t, &target);
			w->why = WHY_BEGIN;
			break;
		}
		/* The search may add and thin checkpoints: keep m's place. */
		tlpos_set(&start, &t->marks[m].pos, t->marks[m].pos.n);
		mark_restore(t, m);
		/* Only the first window ends where gdb is: a later one ends
		 * where the window after it began, and an arrival there
		 * belongs to it (the later window saw none at its start). */
		struct scan sc = { &t->user, tlpos_eq(&target, &from) };
		if (tl_advance(t, &target, &sc) < 0) {
			rc = -1;
			break;
		}
		if (t->nhits && t->hits[t->nhits - 1].ev >= t->first) {
			rc = go_hit(t, t->nhits - 1, w);
			break;
		}
		if (start.ev < t->first) {	/* history begins after the checkpoint */
			struct tl_pos f = { .ev = t->first };
			rc = tl_go_to(t, &f);
			w->why = WHY_BEGIN;
			break;
		}
		tlpos_set(&target, &start, start.n);
	}
	if (rc < 0)
		tl_go_to(t, &from);
	tlpos_free(&target);
	tlpos_free(&from);
	tlpos_free(&start);
	return rc < 0 ? -1 : 0;
}
