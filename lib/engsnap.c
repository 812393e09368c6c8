/* engsnap.c: copies of a stopped replay (checkpoints): each process is
 * forked through an injected clone, its other threads made again with
 * their registers, FP state, signal mask, clear-tid and alternate stack,
 * and the engine is pointed at the copies (eng_snap, eng_restore). */
#include "engint.h"
#include "count.h"
#include "maps.h"
#include "sys.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kcmp.h>

static void copy_rec(struct trace_rec *dst, uint8_t **buf, const struct trace_rec *src)
{
	*dst = *src;
	*buf = xmalloc(src->size);
	memcpy(*buf, src->p, src->size);
	dst->p = *buf;
}

/* A fork shares the shared mappings with the replay, so a checkpoint
 * keeps their bytes: the emulated files' copies (emufs), and the others
 * (anonymous ones, read from each process). Returns 0, or -1 when they
 * hold more than max bytes. */
static int save_shared(struct engine *e, struct eng_snap *s, const int *lead, uint64_t max)
{
	if (emufs_save(&e->fs, &s->files, max) < 0)
		return -1;
	uint64_t total = 0;
	for (int j = 0; j < s->nprocs; j++) {
		struct pt_proc *p = &e->tasks[lead[j]].p;
		FILE *f = maps_open(p->pid);
		if (!f)
			return -1;
		struct maps_line ml;
		while (maps_next(f, &ml)) {
			uint64_t lo = ml.lo, hi = ml.hi;
			if (ml.perm[3] != 's' || !strncmp(ml.name, "/memfd:rewind-file", 18))
				continue;
			if ((total += hi - lo) > max) {
				fclose(f);
				return -1;
			}
			s->shm = xrealloc(s->shm, (s->nshm + 1) * sizeof *s->shm);
			struct eng_shm *m = &s->shm[s->nshm++];
			m->addr = lo;
			m->proc = j;
			m->data = xmalloc(hi - lo);
			/* Pages past the end of the object (a grown mapping)
			 * do not read: keep what does. */
			ssize_t n = pt_read(p, lo, m->data, hi - lo);
			m->len = n > 0 ? n : 0;
		}
		fclose(f);
	}
	return 0;
}

void eng_snap_undo(struct engine *e, const struct eng_snap *s)
{
	if (emufs_restore(&e->fs, &s->files) < 0)
		die(EXIT_TRACE, "cannot put back the checkpoint's mapped files: %s", strerror(errno));
	for (int j = 0; j < s->nprocs; j++) {
		struct pt_proc p = { .pid = s->procs[j].pid, .memfd = -1 };
		pt_reopen_mem(&p);
		for (int i = 0; i < s->nshm; i++)
			if (s->shm[i].proc == j && s->shm[i].len &&
			    pt_write(&p, s->shm[i].addr, s->shm[i].data, s->shm[i].len) < 0)
				die(EXIT_TRACE, "cannot put back the checkpoint's shared memory at 0x%llx",
				    (unsigned long long)s->shm[i].addr);
		if (p.memfd >= 0)
			close(p.memfd);
	}
}

/* Why live thread k cannot be copied; NULL when it can. */
static const char *not_copyable(struct engine *e, const struct eng_task *k)
{
	if (k->pending_sig || k->raised)
		return "a signal on its way to a thread";
	if (k->doomed)
		return "a thread ended by another's execve";
	if (find_task(e, k->rtgid) < 0)
		return "a process whose first thread has ended while others run";
	/* A clone-like call's parent at its syscall-exit stop, the recorded
	 * result in rax, is copied as it is; a vfork parent resumed into the
	 * kernel has no registers to copy. */
	if (k->state == ET_KERNEL && k->stop == PS_OTHER)
		return "a vfork under way";
	if (k->state != ET_INCALL && k->state != ET_STOPPED && k->state != ET_KERNEL)
		return "a thread on its way out";
	const struct sys_entry *c = k->entrylen >= 4 ? sys_lookup((int32_t)get32(k->entry)) : NULL;
	if (k->state == ET_INCALL && c && c->class == C_EXECVE)
		return "an execve under way";
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, k->p.pid, 0, &r) < 0)
		return "a thread whose registers cannot be read";
	if (k->state == ET_INCALL)
		return k->stop == PS_SECCOMP && (int64_t)r.orig_rax >= 0 && c
			       ? NULL : "a thread inside a call, at a stop where it cannot be copied";
	/* At a seccomp stop a pending call is about to run (an exit). */
	if (k->stop == PS_SECCOMP && (int64_t)r.orig_rax != -1)
		return "a thread on its way out";
	return NULL;
}

const char *eng_copy_blocker(struct engine *e)
{
	if (!e->started || e->done || e->stopping)
		return "the program not running";
	eng_save_cur(e);
	const char *why = NULL;
	for (int i = 0; i < e->ntasks && !why; i++) {
		struct eng_task *k = &e->tasks[i];
		if (k->state != ET_GONE)
			why = not_copyable(e, k);
		else if (k->doomed)	/* its end is still to be checked */
			why = "a thread ended by another's execve";
	}
	/* Two processes that share their memory (a clone with CLONE_VM and
	 * no CLONE_THREAD) would not share it in the copies. */
	for (int a = 0; a < e->ntasks && !why; a++)
		for (int b = a + 1; b < e->ntasks && !why; b++) {
			struct eng_task *x = &e->tasks[a], *y = &e->tasks[b];
			if (x->state != ET_GONE && y->state != ET_GONE && x->rtid == x->rtgid &&
			    y->rtid == y->rtgid &&
			    syscall(SYS_kcmp, x->p.pid, y->p.pid, KCMP_VM, 0, 0) == 0)
				why = "two processes sharing their memory (a vfork or CLONE_VM child)";
		}
	eng_load_cur(e);
	return why;
}

int eng_can_copy(struct engine *e)
{
	return !eng_copy_blocker(e);
}

int eng_snap(struct engine *e, struct eng_snap *s)
{
	memset(s, 0, sizeof *s);
	if (!eng_can_copy(e))
		return -1;
	eng_save_cur(e);
	int n = e->ntasks;
	int *lead = xmalloc(n * sizeof *lead);
	s->th = xmalloc(n * sizeof *s->th);
	memset(s->th, 0, n * sizeof *s->th);
	s->procs = xmalloc(n * sizeof *s->procs);
	memset(s->procs, 0, n * sizeof *s->procs);
	s->ntasks = n;
	for (int i = 0; i < n; i++) {
		struct eng_task *k = &e->tasks[i];
		if (k->state == ET_GONE)
			continue;
		if (eng_thread_state(&k->p, &s->th[i]) < 0)
			goto no;
		if (k->rtid == k->rtgid)
			lead[s->nprocs++] = i;
	}
	if (save_shared(e, s, lead, 64u << 20) < 0)
		goto no;
	for (int j = 0; j < s->nprocs; j++) {
		/* The copy is a fork of the current thread in its process
		 * (pred_ok() in gdbstub runs it), else of the first thread. */
		int x = e->tasks[e->ti].rtgid == e->tasks[lead[j]].rtgid && e->tasks[e->ti].state != ET_GONE
				? e->ti : lead[j];
		struct eng_task *k = &e->tasks[x];
		struct eng_snap_proc *sp = &s->procs[j];
		sp->rtgid = k->rtgid;
		sp->regs = s->th[x].regs;
		sp->pid = eng_fork(&k->p, &s->th[x].regs);
		/* The injected call left the thread at a syscall-exit stop; one
		 * inside a call goes back to its entry. */
		if (k->state == ET_INCALL && eng_reenter(&k->p, &s->th[x].regs) < 0)
			die(EXIT_TRACE, "event %llu: thread %u cannot enter its call again after a checkpoint",
			    (unsigned long long)e->cur.event, k->rtid);
		if (k->state != ET_INCALL)
			k->stop = PS_SYSEXIT;
		if (sp->pid < 0)
			goto no;
		/* The copy only waits to be copied again, at eng_restore(),
		 * by a clone injected into it: a signal it caught meanwhile
		 * would stop that clone. One does come: a copy made of it
		 * that executed a program sends it SIGCHLD when it ends,
		 * though cloned with no exit signal (t8010's echo child).
		 * It blocks them all; the threads made of it get their own
		 * masks back (set_thread). */
		static const uint64_t all = ~0ull;
		if (ptrace(PTRACE_SETSIGMASK, sp->pid, 8, &all) < 0)
			goto no;
		sp->tsclen = tsc_export(sp->rtgid, &sp->tsc);
		sp->cntlen = count_export(sp->rtgid, &sp->cnt);
		if (x == e->ti || (!s->pid && sp->rtgid == e->tasks[e->ti].rtgid)) {
			s->pid = sp->pid;
			s->regs = sp->regs;
		}
	}
	s->tasks = xmalloc(n * sizeof *s->tasks);
	memcpy(s->tasks, e->tasks, n * sizeof *s->tasks);
	for (int i = 0; i < n; i++) {
		struct eng_task *k = &s->tasks[i];
		k->p.memfd = -1;
		k->entry = k->entrylen ? xmalloc(k->entrylen) : NULL;
		k->entrycap = k->entrylen;
		if (k->entrylen)
			memcpy(k->entry, e->tasks[i].entry, k->entrylen);
	}
	s->ti = e->ti;
	memcpy(s->exe, e->exe, sizeof s->exe);
	trace_tell(&e->r, &s->pos);
	copy_rec(&s->cur, &s->curbuf, &e->cur);
	if (e->held)
		copy_rec(&s->ahead, &s->aheadbuf, &e->ahead);
	s->held = e->held;
	s->rm = e->rm;
	s->done = e->done;
	s->status = e->status;
	free(lead);
	eng_load_cur(e);
	return 0;
no:
	free(lead);
	eng_load_cur(e);
	eng_snap_free(s);
	return -1;
}

static void put_rec(struct trace_rec *dst, uint8_t **buf, size_t *cap, const struct trace_rec *src)
{
	if (src->size > *cap) {
		*cap = src->size;
		*buf = xrealloc(*buf, src->size);
	}
	memcpy(*buf, src->p, src->size);
	*dst = *src;
	dst->p = *buf;
}

void eng_restore(struct engine *e, const struct eng_snap *s)
{
	pid_t *child = xmalloc(s->nprocs * sizeof *child);
	uint32_t *rtgid = xmalloc(s->nprocs * sizeof *rtgid);
	for (int j = 0; j < s->nprocs; j++) {
		struct pt_proc sp = { .pid = s->procs[j].pid, .memfd = -1 };
		pt_reopen_mem(&sp);
		child[j] = eng_fork(&sp, &s->procs[j].regs);
		close(sp.memfd);
		if (child[j] < 0)
			die(EXIT_TRACE, "cannot copy the checkpoint (process %d): %s", s->procs[j].pid,
			    strerror(errno));
		rtgid[j] = s->procs[j].rtgid;
	}
	eng_snap_undo(e, s);
	struct eng_task *tasks = xmalloc(s->ntasks * sizeof *tasks);
	memcpy(tasks, s->tasks, s->ntasks * sizeof *tasks);
	for (int i = 0; i < s->ntasks; i++) {
		struct eng_task *k = &tasks[i];
		k->entry = k->entrylen ? xmalloc(k->entrylen) : NULL;
		if (k->entrylen)
			memcpy(k->entry, s->tasks[i].entry, k->entrylen);
	}
	eng_adopt(e, tasks, s->ntasks, s->ti, rtgid, child, s->nprocs, s->th);
	for (int j = 0; j < s->nprocs; j++) {
		tsc_import(s->procs[j].rtgid, s->procs[j].tsc, s->procs[j].tsclen);
		count_import(s->procs[j].rtgid, s->procs[j].cnt, s->procs[j].cntlen);
	}
	free(child);
	free(rtgid);
	e->done = s->done;
	e->status = s->status;
	e->held = s->held;
	e->rm = s->rm;
	memcpy(e->exe, s->exe, sizeof e->exe);
	put_rec(&e->cur, &e->curbuf, &e->curcap, &s->cur);
	if (s->held)
		put_rec(&e->ahead, &e->aheadbuf, &e->aheadcap, &s->ahead);
	if (trace_seek(&e->r, &s->pos) < 0)
		die(EXIT_TRACE, "%s", e->r.err);
}

void eng_snap_free(struct eng_snap *s)
{
	for (int j = 0; j < s->nprocs; j++) {
		struct pt_proc p = { .pid = s->procs[j].pid, .memfd = -1 };
		if (p.pid > 0)
			pt_kill(&p);
		free(s->procs[j].tsc);
		free(s->procs[j].cnt);
	}
	free(s->procs);
	free(s->curbuf);
	free(s->aheadbuf);
	emufs_saved_free(&s->files);
	for (int i = 0; i < s->nshm; i++)
		free(s->shm[i].data);
	free(s->shm);
	for (int i = 0; i < s->ntasks; i++) {
		free(s->th[i].xs);
		if (s->tasks)
			free(s->tasks[i].entry);
	}
	free(s->th);
	free(s->tasks);
	memset(s, 0, sizeof *s);
}

/* Give the new thread k of a restored process the state th of the
 * thread it stands for. first: the process's first thread, a fork of the
 * copy, which has the clear-tid address and alternate stack of no
 * thread, or of the copied one. Dies if the kernel refuses. */
static void set_thread(struct eng_task *k, const struct eng_snap_thread *th, int first)
{
	struct user_regs_struct r = th->regs;
	uint64_t a[6] = { 0 }, ret;
	k->stop = PS_SIGNAL;
	if (first && k->ctid) {
		a[0] = k->ctid;
		if (eng_inject(&k->p, &r, r.rip, SYS_set_tid_address, a, &ret, NULL) < 0)
			die(EXIT_TRACE, "cannot give thread %u its clear-tid address", k->rtid);
		k->stop = PS_SYSEXIT;
	}
	if (first || k->alt[1] != SS_DISABLE) {
		/* The stack_t goes below the red zone; rsp is moved off any
		 * alternate stack for the call, which refuses to change the
		 * one it runs on. */
		uint64_t at = (r.rsp - 512) & ~15ull, save[3];
		struct user_regs_struct w = r;
		w.rsp = 8;
		a[0] = at;
		if (pt_read(&k->p, at, save, sizeof save) != sizeof save ||
		    pt_write(&k->p, at, k->alt, sizeof k->alt) < 0 ||
		    eng_inject(&k->p, &w, r.rip, SYS_sigaltstack, a, &ret, NULL) < 0 || ret ||
		    pt_write(&k->p, at, save, sizeof save) < 0)
			die(EXIT_TRACE, "cannot give thread %u its alternate signal stack", k->rtid);
		k->stop = PS_SYSEXIT;
	}
	pt_setregs(&k->p, &r);
	if (pt_setxstate(&k->p, th->xs, th->xlen) < 0 ||
	    ptrace(PTRACE_SETSIGMASK, k->p.pid, 8, &th->mask) < 0)
		die(EXIT_TRACE, "cannot set the FP state or signal mask of thread %u: %s", k->rtid,
		    strerror(errno));
	if (k->state == ET_INCALL) {
		if (eng_reenter(&k->p, &r) < 0)
			die(EXIT_TRACE, "cannot make thread %u enter its call again", k->rtid);
		k->stop = PS_SECCOMP;
	}
	k->how = RESUME_CONT;
}

void eng_adopt(struct engine *e, struct eng_task *tasks, int n, int ti, const uint32_t *rtgid,
	       const pid_t *pid, int nprocs, const struct eng_snap_thread *th)
{
	eng_kill_all(e);
	for (int i = 0; i < e->ntasks; i++)
		free(e->tasks[i].entry);
	free(e->tasks);
	e->tasks = tasks;
	e->ntasks = e->kept = e->made = n;
	e->ti = ti;
	for (int i = 0; i < n; i++)	/* born of a checkpoint on disk: 0 */
		if (tasks[i].born >= e->made)
			e->made = tasks[i].born + 1;
	for (int i = 0; i < n; i++)
		tasks[i].p.memfd = -1;
	for (int j = 0; j < nprocs; j++) {
		/* The copy is the process's first thread; the others are
		 * cloned in it, then each gets its own state. */
		int li = find_task(e, rtgid[j]);
		if (li < 0)
			die(EXIT_TRACE, "a checkpoint's process %u has no first thread", rtgid[j]);
		struct eng_task *lk = &e->tasks[li];
		lk->p.pid = pid[j];
		pt_reopen_mem(&lk->p);
		for (int i = 0; i < n; i++) {
			struct eng_task *k = &e->tasks[i];
			if (k == lk || k->state == ET_GONE || k->rtgid != lk->rtgid)
				continue;
			k->p.pid = eng_clone_thread(&lk->p, k->ctid);
			if (k->p.pid < 0)
				die(EXIT_TRACE, "cannot make thread %u of the checkpoint again", k->rtid);
			pt_reopen_mem(&k->p);
		}
		for (int i = 0; i < n; i++)
			if (e->tasks[i].state != ET_GONE && e->tasks[i].rtgid == lk->rtgid)
				set_thread(&e->tasks[i], &th[i], i == li);
	}
	for (int i = 0; i < n; i++)
		e->tasks[i].pending_sig = e->tasks[i].raised = 0;
	eng_load_cur(e);
	e->stopping = 0;
}
