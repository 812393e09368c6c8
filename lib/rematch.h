/* rematch.h: finding again, under a debugger, the place where rec
 * preempted a thread. The thread re-executes its stretch; each time it is
 * at the recorded rip its state is compared with the recorded one, and
 * the first equal state is that place (an equal state has the same
 * future, even in a loop whose state repeats). */
#ifndef REWIND_REMATCH_H
#define REWIND_REMATCH_H

#include <signal.h>
#include <stdint.h>
#include <sys/user.h>
#include "pt.h"
#include "trace.h"

struct pos_store;	/* pos.h */

/* How far a search goes before it gives up (replay then sets the
 * recorded state, as without re-execution): arrivals at the recorded rip
 * (REWIND_REEXEC_BUDGET overrides), and comparisons of all memory (made
 * only when registers and FP state are equal). */
#define REMATCH_ARRIVALS 1000
#define REMATCH_MEMCMPS 1000
/* A point (TRP_POINT: no state to set) is searched longer, from its
 * count on: past it, replay has diverged. So is a counted state (one rec
 * did not take as a point: no counted edge came after where it stopped),
 * from its count on. */
#define REMATCH_POINT_ARRIVALS 100000

/* Where the search for the end of the current stretch is. It is part of
 * the replay's state (checkpoints keep it, every event clears it), so
 * that a search gives up at the same place each time it is made. */
struct rematch {
	uint64_t arrivals;	/* at the recorded rip since the stretch began */
	uint64_t compares;	/* of memory */
	uint64_t checked;	/* 1 + arrivals at the last check; 0: none */
	int same;		/* that check's answer */
	int differ;		/* the memory block that differed last (-1: none) */
	int cstate;		/* the count's part (RMC_*) */
	int ctrap;		/* the count trap came and was not told yet */
};

/* With a counted preemption (count.h), the thread first runs with its
 * count armed to trap at the recorded count, and only from there on to
 * the recorded rip: not tried yet, armed, or done (trapped, at the count
 * already, or not possible: then the search goes as without a count). */
enum { RMC_NONE, RMC_ARMED, RMC_DONE };

/* How the last preemption replayed was reached: set without a search,
 * found, set when the search gave up, or set when the thread made a
 * system call first (it ran past the place: what stopped after it in
 * this stretch came too early). */
enum { RM_SET, RM_FOUND, RM_GAVEUP, RM_PASSED };

/* May the place of preemption record pre be searched for, and the
 * recorded rip of pre: trace_preempt_ran() and trace_preempt_rip() of
 * trace.h, under the names engine.c uses. */
static inline int rematch_ran(const struct trace_rec *pre)
{
	return trace_preempt_ran(pre);
}

static inline uint64_t rematch_rip(const struct trace_rec *pre)
{
	return trace_preempt_rip(pre);
}

/* The thread p is stopped before running on toward pre's place: is this
 * that place? Returns 1 when p is at pre's rip with the recorded
 * registers (but orig_rax and the resume flag), FP/vector state and
 * memory; 0 if not; -1 if not and the budget is spent. Checks an arrival
 * once (m). The recorded bytes of memory blocks are in store (pre's own
 * are added). The stacks of p's process below its threads' stack
 * pointers sps[0..n) (and red zones) are not compared (pos_dead_stacks):
 * what lies there is dead, and differs where a library took other paths
 * in the recording (the syscall buffer's) than in the replay; the state
 * set afterwards makes those bytes the recorded ones too (a point's
 * hashes were made without them). */
int rematch_check(struct pt_proc *p, const struct trace_rec *pre, struct rematch *m,
		  struct pos_store *store, const uint64_t *sps, int n);

/* The thread stopped with SIGTRAP si, registers r, on its way to pre's
 * place: count it in m if it arrived at pre's rip (an int3 there, or a
 * step or watchpoint that ended there). */
void rematch_stopped(struct rematch *m, const struct trace_rec *pre, const siginfo_t *si,
		     const struct user_regs_struct *r);

/* The arrivals a search may take (REMATCH_ARRIVALS or the environment's). */
uint64_t rematch_budget(void);

/* The budget of the search for the end of the stretch pre closes:
 * REMATCH_POINT_ARRIVALS for a point or a counted state, else
 * rematch_budget(). */
uint64_t rematch_budget_of(const struct trace_rec *pre);

#endif
