/* engine.h: the replay engine. It re-executes a trace event by event with
 * the program under ptrace, answering syscalls from the trace; replay
 * drives it, and gdbstub and tseek will. */
#ifndef REWIND_ENGINE_H
#define REWIND_ENGINE_H

#include <stdint.h>
#include <sys/user.h>
#include "pt.h"
#include "trace.h"

struct engine {
	struct pt_proc p;
	struct trace_reader r;
	char dir[4096];
	struct trace_rec cur;	/* the event being replayed (owned copy) */
	uint8_t *curbuf;
	size_t curcap;
	struct trace_rec ahead;	/* the event after cur, when held */
	uint8_t *aheadbuf;
	size_t aheadcap;
	int held;		/* ahead was read and is the next event */
	int started;		/* the tracee exists */
	int pending_sig;	/* signal to pass when the tracee resumes */
	int raised;		/* the next async signal was raised already */
	int done;		/* the program exited */
	int status;		/* its wait status */
	/* Called with the bytes the program wrote to stdout (1) or
	 * stderr (2) at event ev. */
	void (*emit)(void *ctx, uint64_t ev, int stream, const uint8_t *data, size_t len);
	void *ctx;
};

/* Open the trace in dir and check its start record. Dies with status 125
 * and a one-line message on a bad trace. */
void eng_open(struct engine *e, const char *dir);

/* Replay the next event. Returns 1, or 0 when the program has exited
 * (e->status). Dies with status 125 on divergence or a bad trace, naming
 * the event. */
int eng_step(struct engine *e);

/* Registers of the stopped tracee as the program sees them after the
 * current event. */
void eng_regs(struct engine *e, struct user_regs_struct *r);

/* Kill the tracee. */
void eng_close(struct engine *e);

#endif
