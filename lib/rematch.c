/* rematch.c: compares a thread re-executing a preempted stretch with the
 * state rec recorded where it stopped it (see rematch.h). */
#include "rematch.h"
#include "pos.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <string.h>

#define EFLAGS_RF 0x10000	/* resume flag: set by the kernel after some traps */
#define XSAVE_HDR 512		/* the XSAVE header: which components are in use */
#define XSAVE_HDR_LEN 64

uint64_t rematch_budget(void)
{
	static long long v = -1;
	if (v < 0) {
		const char *s = getenv("REWIND_REEXEC_BUDGET");
		v = s ? parse_num(s) : -1;
		if (v < 0)
			v = REMATCH_ARRIVALS;
	}
	return v;
}

uint64_t rematch_budget_of(const struct trace_rec *pre)
{
	uint64_t c, b = rematch_budget();
	if ((trace_preempt_point(pre) || trace_count(pre, &c) == 0) && b < REMATCH_POINT_ARRIVALS)
		b = REMATCH_POINT_ARRIVALS;
	return b;
}

/* Is p's FP/vector state the recorded XSAVE area x? The header says
 * which components are in their initial state, which the kernel shows as
 * their initial values all the same: the values are compared, not it. */
static int xstate_same(struct pt_proc *p, const uint8_t *x, size_t len)
{
	static uint8_t buf[65536];
	ssize_t n = pt_getxstate(p, buf, sizeof buf);
	if (n < 0 || (size_t)n != len)
		return 0;
	if (len <= XSAVE_HDR)
		return !memcmp(buf, x, len);
	return !memcmp(buf, x, XSAVE_HDR) &&
	       (len <= XSAVE_HDR + XSAVE_HDR_LEN ||
		!memcmp(buf + XSAVE_HDR + XSAVE_HDR_LEN, x + XSAVE_HDR + XSAVE_HDR_LEN,
			len - XSAVE_HDR - XSAVE_HDR_LEN));
}

#define MAXDEAD 64

/* Compare p with the state pre records: registers first (cheap), then
 * FP/vector state, then memory (all of it: counted in m). */
static int state_same(struct pt_proc *p, const struct trace_rec *pre, struct rematch *m,
		      struct pos_store *store, const uint64_t *sps, int n)
{
	struct trace_item it, regs, xs, hashes;
	trace_preempt_state(pre, &regs, &xs, &hashes);
	struct user_regs_struct r, want;
	if (regs.len != sizeof want || hashes.len % 24)
		return 0;
	memcpy(&want, regs.p, sizeof want);
	pt_getregs(p, &r);
	/* orig_rax is no state of the program's: the kernel's note of how
	 * it entered (an interrupt here, an int3 there). */
	r.orig_rax = want.orig_rax;
	r.eflags &= ~EFLAGS_RF;
	want.eflags &= ~EFLAGS_RF;
	if (memcmp(&r, &want, sizeof r) || !xstate_same(p, xs.p, xs.len))
		return 0;
	m->compares++;
	size_t off = trace_fixed_size(TR_PREEMPT);
	while (trace_item(pre, &off, &it) > 0)
		if (it.tag == IT_BLOCK && it.len >= 8)
			pos_store_add(store, get64(it.p), it.p + 8, it.len - 8);
	uint64_t dead[MAXDEAD][2];
	int nd = 0, point = trace_preempt_point(pre);
	if (!point)
		nd = pos_dead_stacks(p->pid, sps, n, dead, MAXDEAD);	/* p->pid: its process's maps too */
	off = trace_fixed_size(TR_PREEMPT);
	while (point && trace_item(pre, &off, &it) > 0)
		for (uint32_t k = 0; it.tag == IT_DEAD && k + 16 <= it.len && nd < MAXDEAD; k += 16) {
			dead[nd][0] = get64(it.p + k);	/* as rec hashed them */
			dead[nd++][1] = get64(it.p + k + 8);
		}
	struct pos_block *b = xmalloc(hashes.len + 1);
	memcpy(b, hashes.p, hashes.len);
	/* A point's blocks are hashed with the dead stacks as zeros, and
	 * their bytes are not in the trace. */
	int same = pos_same(p, b, hashes.len / 24, point ? NULL : store,
			    (const uint64_t (*)[2])dead, nd, &m->differ);
	free(b);
	return same;
}

int rematch_check(struct pt_proc *p, const struct trace_rec *pre, struct rematch *m,
		  struct pos_store *store, const uint64_t *sps, int n)
{
	struct user_regs_struct r;
	pt_getregs(p, &r);
	if (r.rip != rematch_rip(pre))
		return 0;
	if (m->checked != m->arrivals + 1) {
		if (!m->checked)
			m->differ = -1;
		m->same = state_same(p, pre, m, store, sps, n);
		m->checked = m->arrivals + 1;
	}
	uint64_t budget = rematch_budget_of(pre);
	if (!m->same && (m->arrivals >= budget || m->compares >= REMATCH_MEMCMPS))
		return -1;
	return m->same;
}

void rematch_stopped(struct rematch *m, const struct trace_rec *pre, const siginfo_t *si,
		     const struct user_regs_struct *r)
{
	uint64_t at = si->si_code == SI_KERNEL ? r->rip - 1 : r->rip;
	if (at == rematch_rip(pre))
		m->arrivals++;
}
