/* gaps.c: the preempted stretches of the debugged process that replay set
 * instead of re-executing, so that gdb can be told a breakpoint there
 * could not stop. */
#include "tlpriv.h"
#include "util.h"

#include <stdio.h>

/* Remember the event just replayed if it preempted a thread of the
 * debugged process (once: windows are replayed again and again). */
void gap_note(struct timeline *t)
{
	const struct trace_rec *c = &t->e.cur;
	struct eng_task *k = eng_task_of(&t->e, c->tid);
	/* With re-execution on, a stretch is set without a search only
	 * when nothing was armed that could stop in it. */
	if (c->kind != TR_PREEMPT || !k || k->rtgid != t->pid || t->e.preempt_how == RM_FOUND ||
	    (t->reexec && t->e.preempt_how == RM_SET))
		return;
	for (int i = t->ngaps; i-- > 0;)
		if (t->gaps[i].ev == c->event)
			return;
	if (t->ngaps == t->capgaps) {
		t->capgaps = t->capgaps ? 2 * t->capgaps : 16;
		t->gaps = xrealloc(t->gaps, t->capgaps * sizeof *t->gaps);
	}
	t->gaps[t->ngaps].ev = c->event;
	t->gaps[t->ngaps].how = t->e.preempt_how;
	t->gaps[t->ngaps].rip = get64(c->p);
	t->gaps[t->ngaps++].tid = c->tid;
}

int tl_gaps(struct timeline *t, uint64_t a, uint64_t b, char *buf, size_t size)
{
	if (a == UINT64_MAX || b == UINT64_MAX)	/* lost its place */
		return 0;
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	int n = 0, best = -1;
	for (int i = 0; i < t->ngaps; i++) {
		uint64_t ev = t->gaps[i].ev;
		if (ev <= lo || ev > hi)
			continue;
		n++;
		if (best < 0 || (a < b ? ev < t->gaps[best].ev : ev > t->gaps[best].ev))
			best = i;
	}
	if (!n)
		return 0;
	char why[240];
	if (t->gaps[best].how == RM_GAVEUP)
		snprintf(why, sizeof why, "preempted at 0x%llx, a place not found again within %llu "
			 "arrivals there (REWIND_REEXEC_BUDGET); its state was set",
			 (unsigned long long)t->gaps[best].rip, (unsigned long long)rematch_budget());
	else if (t->gaps[best].how == RM_PASSED)
		snprintf(why, sizeof why, "preempted at 0x%llx, passed without a match up to a "
			 "system call; its state was set there, and stops in the stretch may have come "
			 "too early", (unsigned long long)t->gaps[best].rip);
	else
		snprintf(why, sizeof why, "preempted; its state was set");
	int len = snprintf(buf, size, "rewind: thread %u was not re-executed up to event %llu "
			   "(%s): a breakpoint or watchpoint there cannot stop",
			   t->gaps[best].tid, (unsigned long long)t->gaps[best].ev, why);
	if (n > 1)
		len += snprintf(buf + len, size - len, " (and %d more such stretches passed)", n - 1);
	len += snprintf(buf + len, size - len, "\n");
	return len < (int)size ? len : (int)size - 1;
}
