/* divert.h: diversions, as rr has them: gdb's writes (set var, a register)
 * and the calls it makes (call f(), print f(x)) go to a throwaway fork of
 * the debugged process at the current place; the replay stays as it was. */
#ifndef REWIND_DIVERT_H
#define REWIND_DIVERT_H

#include "timeline.h"

struct divert {
	struct pt_proc p;	/* the copy, one thread, stopped (pid 0: none) */
	uint32_t tid;		/* the recorded thread it copies */
	/* gdb's inferior calls under way: gdb reads the siginfo before one
	 * and writes it back after it (rr tells calls the same way); regs:
	 * gdb has written registers since, so the next resume is the call. */
	int calls, regs;
	struct div_shm {	/* the bytes of shared writable mappings, which */
		uint64_t addr, len;	/* the copy shares with the replay */
		uint8_t *data;
	} *shm;
	int nshm;
};

/* Make the copy of thread tid at the current place, unless there is one.
 * Returns 0, or -1 with t->msg. */
int div_begin(struct divert *d, struct timeline *t, uint32_t tid);

/* Discard the copy (the shared mappings get their bytes back). */
void div_end(struct divert *d);

/* Run the copy (one instruction with step) until a breakpoint of
 * t->user, the step's end, a signal or Ctrl-C (interrupted() returns 1).
 * Returns 0 with *w; or -1 when the copy made a system call, which is
 * not made: the copy is discarded and msg names the call. */
int div_run(struct divert *d, struct timeline *t, int step, int (*interrupted)(void *),
	    struct why *w, char *msg, size_t size);

#endif
