/* divert.c: diversions: a fork of the debugged process at the current
 * place takes gdb's writes and runs its calls; any system call it makes
 * ends it, so nothing outside the copy changes and history stays as
 * recorded. */
#include "divert.h"
#include "sys.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHM_MAX (64 << 20)	/* bytes of shared mappings a copy may keep */

/* Keep the bytes of the copy's shared writable mappings, which its
 * writes would change for the replay too. Returns 0, or -1 past SHM_MAX. */
static int save_shm(struct divert *d)
{
	char path[64], line[512];
	uint64_t total = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", d->p.pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long a, b;
		char perm[8];
		if (sscanf(line, "%llx-%llx %7s", &a, &b, perm) != 3 || perm[1] != 'w' ||
		    perm[3] != 's')
			continue;
		if ((total += b - a) > SHM_MAX) {
			fclose(f);
			return -1;
		}
		d->shm = xrealloc(d->shm, (d->nshm + 1) * sizeof *d->shm);
		struct div_shm *s = &d->shm[d->nshm++];
		s->addr = a;
		s->len = b - a;
		s->data = xmalloc(s->len);
		if (pt_read(&d->p, a, s->data, s->len) != (ssize_t)s->len)
			s->len = 0;	/* unreadable (no backing page): nothing to put back */
	}
	fclose(f);
	return 0;
}

int div_begin(struct divert *d, struct timeline *t, uint32_t tid)
{
	if (d->p.pid > 0 && d->tid != tid)
		snprintf(t->msg, sizeof t->msg, "a diversion of thread %u is under way", d->tid);
	if (d->p.pid > 0)
		return d->tid == tid ? 0 : -1;
	struct engine *e = &t->e;
	struct eng_task *k = eng_task_of(e, tid);
	struct user_regs_struct seen, real;
	if (!k || k->rtgid != t->pid || eng_task_regs(e, k, &seen) < 0 || !eng_can_copy(e)) {
		snprintf(t->msg, sizeof t->msg, "no copy of the process can be made here");
		return -1;
	}
	/* As for a checkpoint: no page protected, no int3 of ours. */
	watch_disarm(&t->w);
	if (watch_still_armed(&t->w)) {
		snprintf(t->msg, sizeof t->msg, "no copy of the process can be made here");
		return -1;
	}
	tl_flush(t);
	pt_getregs(&k->p, &real);
	pid_t c = eng_fork(&k->p, &real);
	eng_injected(e, k, &real);
	if (c < 0) {
		snprintf(t->msg, sizeof t->msg, "the process could not be copied");
		return -1;
	}
	d->p.pid = c;
	d->p.memfd = -1;
	pt_reopen_mem(&d->p);
	seen.orig_rax = -1;	/* the copy is in no call */
	pt_setregs(&d->p, &seen);
	d->tid = tid;
	if (save_shm(d) < 0) {
		div_end(d);
		snprintf(t->msg, sizeof t->msg, "its shared mappings are too big to keep");
		return -1;
	}
	return 0;
}

void div_end(struct divert *d)
{
	if (d->p.pid > 0) {
		for (int i = 0; i < d->nshm; i++)
			if (d->shm[i].len)
				pt_write(&d->p, d->shm[i].addr, d->shm[i].data, d->shm[i].len);
		if (d->p.memfd >= 0)
			close(d->p.memfd);
		pt_kill(&d->p);
	}
	for (int i = 0; i < d->nshm; i++)
		free(d->shm[i].data);
	free(d->shm);
	memset(d, 0, sizeof *d);
}

/* Put gdb's breakpoints into the copy as int3s (on) or take them out. */
static void int3s(struct divert *d, const struct stopset *s, uint8_t *saved, int on)
{
	static const uint8_t int3 = 0xcc;
	for (int i = 0; i < s->nbp; i++)
		if (on) {
			if (pt_read(&d->p, s->bp[i], &saved[i], 1) == 1)
				pt_write(&d->p, s->bp[i], &int3, 1);
		} else {
			pt_write(&d->p, s->bp[i], &saved[i], 1);
		}
}

/* One resume of the copy to its next stop: *st its wait status; Ctrl-C
 * stops it. Returns 0, or -1 if it is gone. */
static int run1(struct divert *d, int how, int (*interrupted)(void *), int *st, int *intr)
{
	pt_resume(&d->p, how, 0);
	for (;;) {
		int got = 0;
		if (pt_wait(&d->p, st, &got) >= 0)
			return 0;
		if (!got)
			return -1;
		if (!*intr && interrupted(NULL)) {
			*intr = 1;
			kill(d->p.pid, SIGSTOP);
		}
	}
}

int div_run(struct divert *d, struct timeline *t, int step, int (*interrupted)(void *),
	    struct why *w, char *msg, size_t size)
{
	uint8_t saved[TL_MAXBP];
	struct stopset s = t->user;
	struct user_regs_struct r;
	int st, intr = 0, in = 0;
	memset(w, 0, sizeof *w);
	/* First one instruction with no int3 in, so that a breakpoint where
	 * it stands does not stop it at once. */
	if (run1(d, RESUME_STEP, interrupted, &st, &intr) < 0)
		goto gone;
	while (!step && pt_classify(st) == PS_SIGNAL && WSTOPSIG(st) == SIGTRAP && !intr) {
		if (!in)
			int3s(d, &s, saved, in = 1);
		if (run1(d, RESUME_CONT, interrupted, &st, &intr) < 0)
			goto gone;
		pt_getregs(&d->p, &r);
		int i = 0;
		while (i < s.nbp && s.bp[i] != r.rip - 1)
			i++;
		if (pt_classify(st) == PS_SIGNAL && WSTOPSIG(st) == SIGTRAP && i < s.nbp) {
			r.rip--;
			pt_setregs(&d->p, &r);
			w->why = WHY_BP;
			break;
		}
	}
	if (in)
		int3s(d, &s, saved, 0);
	switch (pt_classify(st)) {
	case PS_EXITED:
		goto gone;
	case PS_SECCOMP: {
		pt_getregs(&d->p, &r);
		const struct sys_entry *e = sys_lookup((long)r.orig_rax);
		snprintf(msg, size, "rewind: the call made a system call (%s); history is read-only, the call was abandoned\n",
			 e && e->name ? e->name : "unknown");
		div_end(d);
		return -1;
	}
	case PS_SIGNAL:
		if (w->why)
			return 0;
		if (intr && WSTOPSIG(st) == SIGSTOP)
			w->why = WHY_INTR;
		else if (WSTOPSIG(st) == SIGTRAP)
			w->why = WHY_STEP;
		else {
			w->why = WHY_SIGNAL;
			w->sig = WSTOPSIG(st);
		}
		return 0;
	default:	/* an execve's or another event's stop: a call */
		snprintf(msg, size, "rewind: the call made a system call; history is read-only, the call was abandoned\n");
		div_end(d);
		return -1;
	}
gone:
	snprintf(msg, size, "rewind: the copy the call ran in ended; history is read-only, the call was abandoned\n");
	div_end(d);
	return -1;
}
