/* timeline.h: where a replay is in time and how to get anywhere in it:
 * positions (an event, then moves made after it), fork checkpoints, and
 * the forward and backward searches behind gdb's continue and step. */
#ifndef REWIND_TIMELINE_H
#define REWIND_TIMELINE_H

#include <stdint.h>
#include <sys/user.h>
#include "engine.h"
#include "watch.h"

#define TL_MAXBP 64
#define TL_MAXWP WATCH_MAX

/* What gdb has inserted: breakpoints and hardware watchpoints. */
struct stopset {
	int nbp, nwp;
	uint64_t bp[TL_MAXBP];
	struct watchpt wp[TL_MAXWP];
};

/* A move from one place to a later one inside the same event interval.
 * Without counters, time inside an interval is told by what can be
 * counted: single steps, stops of a set of breakpoints (arrivals at an
 * address, or hits of a watchpoint), executions of one instruction
 * counted by the kernel (no stop each), or the first arrival at an
 * address with given registers and memory (after an interrupt). An
 * execution at the place a move starts from is not counted. */
enum { MV_STEP = 1, MV_RUN, MV_MATCH, MV_COUNT };
struct move {
	int kind;
	uint64_t n;		/* STEP: steps; RUN: stops of set; COUNT: executions,
				   or hits of a watchpoint */
	uint64_t addr;		/* COUNT: of the instruction, or watched, here */
	int wtype, wlen;	/* COUNT: 0, or a watchpoint's type and length */
	struct stopset set;	/* RUN */
	struct user_regs_struct regs;	/* MATCH */
	uint64_t hash;		/* MATCH: of writable memory */
	uint64_t land;		/* STEP of 1: where it landed (to merge runs) */
};

/* A place in the replay: after event ev was replayed, then n moves. */
struct tl_pos {
	uint64_t ev;
	int n, cap;
	struct move *mv;
};

/* Why the replay stopped, for gdb's stop reply. */
enum { WHY_STEP = 1, WHY_BP, WHY_WATCH, WHY_SIGNAL, WHY_BEGIN, WHY_END, WHY_INTR };
struct why {
	int why;
	int sig;		/* WHY_SIGNAL */
	uint64_t addr;		/* WHY_WATCH: the watched address */
	int wtype;
	uint32_t tid;		/* the thread it is about (0: the one that ran last) */
};

struct mark {
	struct tl_pos pos;
	struct eng_snap snap;
	int id;			/* > 0: a user checkpoint (monitor checkpoint) */
};

struct timeline {
	struct engine e;
	struct tl_pos here;
	struct stopset user;	/* gdb's breakpoints and watchpoints */
	uint64_t first;		/* the first event a position can have */
	struct mark *marks;
	int nmarks, capmarks, nextid;
	double last_mark;	/* when the last periodic checkpoint was made */
	uint64_t pass[2];	/* signals gdb does not want to stop for */
	char msg[512];		/* what failed, for gdb's console */
	/* Reverse-continue remembers the hits of its last search, so that a
	 * conditional breakpoint does not search again for each hit. */
	struct tl_pos *hits;
	struct why *hitwhy;
	int nhits, capnhits, hitat;
	struct stopset hitset;
	long nsteps, nstops;	/* counters for statistics */
	int continuing;		/* in a continue, which Ctrl-C may interrupt */
	struct {		/* the int3s in the debugged process's code, and their bytes */
		int n;
		uint64_t addr[TL_MAXBP];
		uint8_t saved[TL_MAXBP];
	} ins;
	struct watch w;		/* watchpoints and counts (watch.h) */
	/* The process gdb debugs (as recorded; the first one unless
	 * gdbstub -p), and its executable. Threads of other processes
	 * replay with nothing armed. */
	uint32_t pid;
	char exe[4200];
	uint32_t ran;		/* the thread of the process that ran last */
	uint32_t step_tid;	/* the thread tl_step and tl_rstep move (0: any) */
	int seen;		/* threads and processes made so far (the
				   engine's made when last looked at) */
	/* The preemptions of the debugged process replayed so far whose
	 * stretches were set, not re-executed (tl_gaps): event, thread,
	 * how (RM_SET or RM_GAVEUP), and the recorded rip. */
	struct { uint64_t ev, rip; uint32_t tid; int how; } *gaps;
	int ngaps, capgaps;
	int reexec;		/* run preempted stretches (not REWIND_NO_REEXEC=1) */
};

/* Open the trace and replay up to its first event; with ev > 1, start
 * instead at the latest tseek checkpoint at or before event ev, if the
 * trace has one (history then begins there). */
void tl_open(struct timeline *t, const char *dir, uint64_t ev);
/* Debug process pid (as recorded) of the trace instead of the first:
 * replay on to just after its first execve (or its fork, if it never
 * execs); history begins there. Returns -1 with t->msg if the trace has
 * no such process. */
int tl_follow(struct timeline *t, uint32_t pid);
void tl_close(struct timeline *t);

/* The moves gdb asks for. Each returns 0 with *w saying why it stopped,
 * or -1 with t->msg set (the replay stays where it was). */
int tl_cont(struct timeline *t, struct why *w);
int tl_step(struct timeline *t, struct why *w);
int tl_rcont(struct timeline *t, struct why *w);
int tl_rstep(struct timeline *t, struct why *w);
/* Go to just after event ev. Returns 0; 1 when history ends before ev
 * (the replay is then at its end, which t->msg names); or -1 with
 * t->msg. */
int tl_goto_event(struct timeline *t, uint64_t ev);
/* Save the place as a checkpoint; returns its id or -1. */
int tl_checkpoint(struct timeline *t);
int tl_restart(struct timeline *t, int id);
/* Memory the checkpoints hold (their proportional set size), in KiB. */
long tl_mark_kib(struct timeline *t);

/* Take the stub's int3s out of the program's code (they stay in while
 * the replay moves); call before memory is read for gdb. */
void tl_flush(struct timeline *t);

/* With REWIND_TLDEBUG set, print the place to stderr. */
void tl_show(struct timeline *t, const char *what);

/* A move from event a to event b (either way round) passed stretches that
 * ended in a preemption of the debugged process: replay set their state
 * instead of running them, so nothing armed could stop there. Writes one
 * line naming the nearest to a (thread, event) and how many there were
 * into buf; returns its length, 0 if none. */
int tl_gaps(struct timeline *t, uint64_t a, uint64_t b, char *buf, size_t size);

/* Registers of thread tid (as recorded) as the program sees them.
 * Returns the thread's pid in this run, or -1 if it is not there. */
pid_t tl_regs_of(struct timeline *t, uint32_t tid, struct user_regs_struct *r);

/* The live threads of the debugged process (recorded ids), at most max;
 * returns how many. */
int tl_threads(struct timeline *t, uint32_t *tids, int max);

/* A live thread of the debugged process, to read its memory, or NULL. */
struct pt_proc *tl_mem(struct timeline *t);

#endif
