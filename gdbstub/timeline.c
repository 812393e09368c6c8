/* timeline.c: the core of the timeline: positions (an event plus counted
 * moves after it), the debugged process's threads, opening and closing a
 * replay and going to an event. The moves themselves live in the files
 * tlpriv.h lists. */
#include "tlpriv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

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

/* ---- opening, closing and showing a replay ---- */

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
	eng_set_opts(&t->e, &(struct eng_opts){ .debug = 1 });
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
	mark_add(t, 0);
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
	struct tl_pos p = { .ev = at };
	if (tl_go_to(t, &p) < 0)
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
		mark_drop(t, t->nmarks - 1);
	free(t->marks);
	for (int i = 0; i < t->capnhits; i++)
		tlpos_free(&t->hits[i]);
	free(t->hits);
	free(t->hitwhy);
	free(t->gaps);
	tlpos_free(&t->here);
	watch_free(&t->w);
	eng_close(&t->e);
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

int tl_goto_event(struct timeline *t, uint64_t ev)
{
	t->msg[0] = 0;
	struct tl_pos p = { .ev = ev < t->first ? t->first : ev };
	int k = tl_go_to(t, &p);
	t->nhits = 0;
	if (k < 0 && t->here.ev < p.ev && tl_at_end(t))
		return 1;	/* at the end, which t->msg names */
	return k;
}
