/* tlbase.c: what every part of the timeline stands on: positions (an
 * event plus counted moves after it), stop sets, the hits a backward
 * search records, and the debugged process's threads and end. */
#include "tlpriv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#define MAXHITS 4096		/* hits a reverse search remembers */

/* ---- positions ---- */

void tlpos_push(struct tl_pos *p, const struct move *m)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->mv = xrealloc(p->mv, p->cap * sizeof *p->mv);
	}
	p->mv[p->n++] = *m;
}

void tlpos_set(struct tl_pos *dst, const struct tl_pos *src, int n)
{
	dst->ev = src->ev;
	dst->n = 0;
	for (int i = 0; i < n; i++)
		tlpos_push(dst, &src->mv[i]);
}

void tlpos_free(struct tl_pos *p)
{
	free(p->mv);
	memset(p, 0, sizeof *p);
}

int stopset_eq(const struct stopset *a, const struct stopset *b)
{
	return a->nbp == b->nbp && a->nwp == b->nwp &&
	       !memcmp(a->bp, b->bp, a->nbp * sizeof a->bp[0]) &&
	       !memcmp(a->wp, b->wp, a->nwp * sizeof a->wp[0]);
}

int move_same(const struct move *a, const struct move *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == MV_RUN)
		return stopset_eq(&a->set, &b->set);
	if (a->kind == MV_MATCH)
		return !memcmp(&a->regs, &b->regs, sizeof a->regs) && a->hash == b->hash;
	if (a->kind == MV_COUNT)
		return a->addr == b->addr && a->wtype == b->wtype && a->wlen == b->wlen;
	return 1;
}

/* Is a at or before b on the way b is reached? (An earlier event's
 * interval is before; in one interval, a's moves lead into b's.)
 * Positions whose moves went different ways are not compared. */
int tlpos_le(const struct tl_pos *a, const struct tl_pos *b)
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

int tlpos_eq(const struct tl_pos *a, const struct tl_pos *b)
{
	return a->ev == b->ev && a->n == b->n && tlpos_le(a, b) &&
	       (!a->n || a->mv[a->n - 1].n == b->mv[a->n - 1].n);
}

/* Of two positions on one way, is a the later? */
int tlpos_later(const struct tl_pos *a, const struct tl_pos *b)
{
	if (a->ev != b->ev)
		return a->ev > b->ev;
	if (a->n != b->n)
		return a->n > b->n;
	return a->n && a->mv[a->n - 1].n > b->mv[a->n - 1].n;
}

void stopset_union(struct stopset *d, const struct stopset *a, const struct stopset *b)
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


/* Is a one of s's int3 breakpoints? */
int stopset_has_bp(const struct stopset *s, uint64_t a)
{
	for (int i = 0; i < s->nbp; i++)
		if (s->bp[i] == a)
			return 1;
	return 0;
}

/* ---- threads and processes ---- */

/* Does the thread that runs now belong to the debugged process? */
int tl_mine(struct timeline *t)
{
	return t->e.tasks[t->e.ti].rtgid == t->pid;
}

/* Where the thread that runs now is, if it is the debugged process's;
 * else 0 (nothing is armed for it, and it may be on its way out). */
uint64_t tl_rip_now(struct timeline *t)
{
	struct user_regs_struct r;
	if (!tl_mine(t) || ptrace(PTRACE_GETREGS, t->e.p.pid, 0, &r) < 0)
		return 0;
	return r.rip;
}

struct pt_proc *tl_mem(struct timeline *t)
{
	struct engine *e = &t->e;
	if (tl_mine(t) && e->tasks[e->ti].state != ET_GONE)
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

void hit_add(struct timeline *t, const struct move *pre, const struct move *m, const struct why *w)
{
	if (t->nhits == MAXHITS) {
		tlpos_free(&t->hits[0]);
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
	struct tl_pos *h = &t->hits[t->nhits];
	tlpos_set(h, &t->here, t->here.n);
	if (pre)
		tlpos_push(h, pre);
	tlpos_push(h, m);
	t->hitwhy[t->nhits++] = *w;
}

/* ---- showing a place ---- */


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

int tl_at_end(struct timeline *t)
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
	/* A thread killed by a signal (not SIGKILL, which an execve of a
	 * sibling sends too): a fatal signal ends the whole process at once. */
	if (nx->kind == TR_TASKEXIT && nx->size >= 4 && WIFSIGNALED(get32(nx->p)) &&
	    WTERMSIG(get32(nx->p)) != SIGKILL)
		return 1;
	if ((nx->kind == TR_TASKEXIT && last) ||
	    (live > 1 && nx->kind == TR_SYSCALL && (nx->flags & TRF_NORETURN) && nx->size >= 2 &&
	     (get32(nx->p) == SYS_exit_group || (get32(nx->p) == SYS_exit && last))))
		return 1;
	/* A syscall that does not return and is not an exit kills the program. */
	return nx->kind == TR_SYSCALL && (nx->flags & TRF_NORETURN) && nx->size >= 2 &&
	       get32(nx->p) != SYS_exit && get32(nx->p) != SYS_exit_group;
}
