/* counttrap.c: each counted thread's slot (swapped in when it runs),
 * armed to trap at a count, and the trampolines' traps taken and left
 * (see count.h). */
#include "count.h"
#include "countint.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

void count_switch(struct pt_proc *p, uint32_t key, uint32_t tid)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	if (!c || !c->ok || c->owner == tid)
		return;
	uint64_t v;
	if (c->owner && pt_read(p, COUNT_DATA, &v, 8) == 8)
		cnt_thread(c, c->owner)->slot = v;
	v = cnt_thread(c, tid)->slot;
	pt_write(p, COUNT_DATA, &v, 8);
	c->owner = tid;
}

int count_counted(uint32_t key)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	return c && c->ok;
}

int count_get(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t *count)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	uint64_t v;
	if (!c || !c->ok)
		return -1;
	if (c->owner != tid)
		v = cnt_thread(c, tid)->slot;
	else if (pt_read(p, COUNT_DATA, &v, 8) != 8)
		return -1;
	*count = COUNT_BASE - v;
	return 0;
}

void count_set(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t cnt)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	if (!c || !c->ok)
		return;
	uint64_t v = COUNT_BASE - cnt;
	if (c->owner == tid)
		pt_write(p, COUNT_DATA, &v, 8);
	else
		cnt_thread(c, tid)->slot = v;
}

int count_arm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want)
{
	uint64_t now;
	count_switch(p, key, tid);
	if (count_get(p, key, tid, &now) < 0 || now > want)
		return -1;
	if (now == want)
		return 0;
	uint64_t v = want - now;
	return pt_write(p, COUNT_DATA, &v, 8) < 0 ? -1 : 1;
}

const struct csite *cnt_site_at(const struct cproc *c, uint64_t rip)
{
	for (int i = 0; c && i < c->n; i++)
		if (rip >= c->s[i].tramp && rip < c->s[i].tramp + c->s[i].tlen)
			return &c->s[i];
	return NULL;
}

/* Wait for p's stop after a step (rec's timer interrupts waits). */
static int step_wait(struct pt_proc *p, int *st)
{
	while (waitpid(p->pid, st, __WALL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* The status flags `sub qword [slot], 1` leaves when the slot held x. */
static uint64_t sub_flags(uint64_t x)
{
	uint64_t r = x - 1, f = 0;
	f |= x == 0 ? 0x001 : 0;				/* CF */
	f |= __builtin_parityll(r & 0xff) ? 0 : 0x004;		/* PF: even */
	f |= ((x ^ 1 ^ r) & 0x10) ? 0x010 : 0;			/* AF */
	f |= r == 0 ? 0x040 : 0;				/* ZF */
	f |= (r >> 63) ? 0x080 : 0;				/* SF */
	f |= x == 1ull << 63 ? 0x800 : 0;			/* OF */
	return f;
}

int count_take_trap(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t *at)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	const struct csite *s = cnt_site_at(c, rip - 1);
	uint64_t v;
	/* The slot is 0 at a trap just taken; v > 0 when another stop was
	 * reported before the trap's SIGTRAP and the thread, taken for not
	 * there yet, was disarmed and armed again for its next edge (rec,
	 * under load): it is at the trap of the edge v short of *at. */
	if (!s || rip - 1 != s->tramp + s->zero || c->owner != tid ||
	    pt_read(p, COUNT_DATA, &v, 8) != 8 || v > *at)
		return 0;
	*at -= v;
	/* As an unarmed run leaves them: the slot, and the flags of its sub
	 * where the program's were dead (they are part of the state
	 * compared). */
	v = COUNT_BASE - *at;
	pt_write(p, COUNT_DATA, &v, 8);
	if (!s->live) {
		struct user_regs_struct r;
		pt_getregs(p, &r);
		r.eflags = (r.eflags & ~0x8d5ull) | sub_flags(v + 1);
		pt_setregs(p, &r);
	}
	return 1;
}

int count_trapped(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t want)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	uint64_t at = want;
	if (!count_take_trap(p, key, tid, rip, &at) || at != want)
		return 0;
	/* Out through the edge's jump (a call's six instructions), into
	 * the program's code. */
	for (int i = 0; i < 8; i++) {
		struct user_regs_struct r;
		pt_getregs(p, &r);
		if (!cnt_site_at(c, r.rip))
			break;
		int st;
		pt_resume(p, RESUME_STEP, 0);
		if (step_wait(p, &st) < 0 || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
			return 0;
	}
	return 1;
}

void count_disarm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want)
{
	struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	uint64_t left;
	if (!c || !c->ok)
		return;
	/* Its armed value is in the page while it holds the slot, else
	 * where count_switch() put it when another thread took the slot:
	 * left there, it ran down to the trap later, unarmed, and the
	 * program died of the SIGTRAP. */
	if (c->owner == tid) {
		if (pt_read(p, COUNT_DATA, &left, 8) != 8)
			return;
	} else {
		left = cnt_thread(c, tid)->slot;
	}
	if (left <= want)
		count_set(p, key, tid, want - left);
}

int count_step_out(struct pt_proc *p, uint32_t key, struct user_regs_struct *r, siginfo_t *si,
		   int max)
{
	const struct cproc *c = count_on() ? cnt_proc(key, 0) : NULL;
	int n = 0, stops = 0;
	for (int steps = 0; steps < 256 && stops < 1024 && cnt_site_at(c, r->rip); stops++) {
		int st;
		pt_resume(p, RESUME_STEP, 0);
		if (step_wait(p, &st) < 0 || !WIFSTOPPED(st))
			return n;
		/* A signal's delivery-stop comes before the step: the next
		 * step passes over the signal (the caller holds it) and
		 * makes the step. Ending the steps there left the place in
		 * the trampoline, which gdbstub never finds again. */
		if (WSTOPSIG(st) == SIGTRAP) {
			steps++;
		} else {
			siginfo_t x;
			if (ptrace(PTRACE_GETSIGINFO, p->pid, 0, &x) == 0 && n < max)
				si[n++] = x;
		}
		pt_getregs(p, r);
	}
	return n;
}

int count_in_tramp(uint32_t key, uint64_t rip)
{
	return count_on() && cnt_site_at(cnt_proc(key, 0), rip) != NULL;
}
