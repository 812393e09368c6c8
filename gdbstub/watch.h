/* watch.h: watching memory and counting for the timeline (gdb's
 * watchpoints; executions of an instruction, hits of a watchpoint), each
 * behind one table of operations with a back end chosen once (probe.h). */
#ifndef REWIND_WATCH_H
#define REWIND_WATCH_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "engine.h"

#define WATCH_MAX 4	/* watchpoints gdb may set at once */
#define WATCH_NCOUNT 4	/* counts open at once */
#define WATCH_PAGES 16	/* pages page protection watches at once */

/* One watchpoint: type 2 write, 3 read, 4 access; len 1, 2, 4 or 8. */
struct watchpt {
	uint64_t addr;
	int len, type;
};

/* What a stop meant: the armed watchpoints that fired, and a count that
 * reached a multiple of its period. */
struct watch_stop {
	int nw;
	struct watchpt w[WATCH_MAX];
	int counted;		/* a count signalled: its cookie */
	uint64_t cookie;
	int count_watch;	/* that count counts a watchpoint's hits */
};

struct watch_count {
	int used, fd;		/* fd: the perf event, or -1 */
	pid_t pid;
	uint64_t addr, period, cookie, n;
	int wtype, wlen;
	int here;		/* the execution at the thread's rip is counted already */
};

struct watch_page {
	uint64_t page;
	int prot;		/* the program's own protection (-1: not mapped) */
	int set;		/* what we set (= prot when open) */
};

struct watch {
	const struct watch_stops *stops;	/* back ends, chosen at watch_init */
	const struct watch_counts *counts;
	struct engine *e;
	char msg[256];		/* why the last call failed */
	struct watch_count c[WATCH_NCOUNT];
	/* What is armed for the next resume: gdb's watchpoints, then those
	 * counts count (when counted by stops). */
	int ncur, nuser;
	struct watchpt cur[WATCH_MAX + WATCH_NCOUNT];
	/* debug registers: what the thread drpid holds */
	pid_t drpid;
	uint64_t draddr[4], dr7;
	/* page protection */
	uint32_t pptgid;	/* the process whose pages are protected (as recorded) */
	int valid;		/* pg[] holds the program's protection */
	int valid_once;		/* pg[] was read for these pages */
	int npg;
	struct watch_page pg[WATCH_PAGES];
	int opened;		/* pages opened to step a faulting access */
	struct watch_acc *acc;	/* that access, decoded */
};

/* Choose the back ends and hook into engine e (which must outlive w). */
void watch_init(struct watch *w, struct engine *e);
/* Whether watch_init's watchpoints will be made by page protection (no
 * debug registers, or REWIND_NO_DEBUGREGS=1). */
int watch_by_pages(void);
void watch_free(struct watch *w);
/* One line naming the back ends (for monitor stats). */
const char *watch_how(const struct watch *w);

/* Before a resume of e's current thread (of the debugged process): arm
 * watchpoints wp[0..n) plus those the open counts need. Returns 0, or -1
 * with w->msg when the back end cannot watch them. */
int watch_arm(struct watch *w, const struct watchpt *wp, int n);
/* Take every watchpoint out of the process (before a fork copies it, or
 * its memory is hashed). */
void watch_disarm(struct watch *w);
/* After watch_disarm: is a page still protected by us (the thread was
 * where no call could open it)? A fork now would keep our protection. */
int watch_still_armed(const struct watch *w);
/* The replay is now a fresh copy of a checkpoint, with nothing armed. */
void watch_reset(struct watch *w);

/* The int3s the open counts need (instruction addresses), at most max;
 * returns how many. */
int watch_bps(struct watch *w, uint64_t *addr, int max);
/* Before each resume, with the thread at rip: 1 if a count ends here,
 * before the instruction runs (*ws says which). */
int watch_before(struct watch *w, uint64_t rip, struct watch_stop *ws);
/* The resume to make: 1 (a single step) when the back end needs one
 * (an access to step with its page open, a signal to deliver onto a
 * protected stack), else step. */
int watch_step(struct watch *w, int step);
/* After eng_resume() returned ENG_TRAP: what the stop means. arrived:
 * the thread arrived at an int3 of watch_bps() at rip (not yet run).
 * Returns 1 when the stop was the back end's own (a fault on a protected
 * page): the resume must go on with a step (watch_step() says so); -1
 * with w->msg on failure. */
int watch_trap(struct watch *w, int arrived, uint64_t rip, struct watch_stop *ws);
/* After any other end of a resume. */
void watch_ran(struct watch *w);

/* Count executions of the instruction at addr (wtype 0), or hits of
 * watchpoint {addr, wlen, wtype}, in the current thread from now on (an
 * execution at rip now is not counted); every period-th signals (0:
 * never) with cookie. Returns a handle, or -1 with w->msg. */
int watch_count_open(struct watch *w, uint64_t addr, int wtype, int wlen, uint64_t period,
		     uint64_t cookie);
uint64_t watch_count_read(struct watch *w, int h);
void watch_count_close(struct watch *w, int h);

/* Single-step the stopped thread pid (a copy of the replay, not the
 * engine's) and tell whether the step fired one of wp[0..n): 1, 0, or
 * -1 if the step failed; *after gets its registers. */
int watch_step_fires(struct watch *w, pid_t pid, const struct watchpt *wp, int n,
		     struct user_regs_struct *after);

#endif
