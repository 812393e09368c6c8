/* engine.h: the replay engine. It re-executes a trace event by event with
 * the program under ptrace, answering syscalls from the trace; replay and
 * gdbstub drive it, and it can fork copies of the replay (checkpoints). */
#ifndef REWIND_ENGINE_H
#define REWIND_ENGINE_H

#include <signal.h>
#include <stdint.h>
#include <sys/user.h>
#include "emufs.h"
#include "inject.h"
#include "pt.h"
#include "rematch.h"
#include "trace.h"

/* A thread of the replayed tree. The engine's own p, stop, pending_sig,
 * raised and how fields are those of the current thread (the one the
 * last event was about); the others wait here. */
struct eng_task {
	uint32_t rtid, rtgid;	/* recorded thread and process ids */
	struct pt_proc p;
	int stop, pending_sig, raised, how;
	int state;		/* ET_* */
	int status;		/* wait status once gone */
	int doomed;		/* ended by a sibling's execve still to be performed */
	int want;		/* the wait status the trace has for that end */
	uint8_t *entry;		/* the TRF_ENTRY record of the call it is in */
	size_t entrylen, entrycap;
	char exe[4200];		/* the file its program was loaded from */
	/* Kernel state of the thread that replay made and a checkpoint must
	 * make again (the rest is in registers): the address its clone asked
	 * the kernel to clear at its end (CLONE_CHILD_CLEARTID), and its
	 * alternate signal stack (stack_t: sp, flags, size; alt[1] 2,
	 * SS_DISABLE, when none). */
	uint64_t ctid, alt[3];
	int born;		/* engine's made when it was added */
	/* A vfork parent's registers as it went into the kernel (ET_KERNEL
	 * and resumed: no stop to read them at). */
	struct user_regs_struct kregs;
};
enum {
	ET_STOPPED,		/* at a stop, where its last event left it */
	ET_INCALL,		/* at the entry of a call whose end is to come */
	ET_KERNEL,		/* in a clone-like call, its result not yet given: at its
				   syscall-exit stop, or (a vfork parent waiting
				   for its child) resumed, with no registers to read */
	ET_EXITING,		/* resumed into exit or exit_group */
	ET_GONE,
};

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
	int stop;		/* the ptrace stop the tracee is in (PS_*) */
	int debug;		/* SIGTRAPs of breakpoints and steps end eng_resume() */
	siginfo_t trap;		/* the siginfo of the last ENG_TRAP */
	char exe[4200];		/* the file the program's image was loaded from */
	/* Called when a wait for the tracee is interrupted by a signal to
	 * us; returning 1 stops the tracee where it is (ENG_INTR). */
	int (*interrupt)(void *ctx);
	int stopping;		/* we sent the tracee SIGSTOP to interrupt it */
	int how;		/* how the tracee was last resumed (RESUME_*) */
	/* Called with the bytes the program (process pid, as recorded)
	 * wrote to stdout (1) or stderr (2) at event ev. */
	void (*emit)(void *ctx, uint64_t ev, uint32_t pid, int stream, const uint8_t *data,
		     size_t len);
	/* Called when the mapping at addr (len bytes) was filled with the
	 * bytes of file (the file read, the recorded one at its recorded
	 * path) from offset off on: /proc/PID/maps shows it anonymous.
	 * With len 0: the program (path) is about to be executed from
	 * file, which may be removed once it runs. */
	void (*mapped)(void *ctx, uint64_t addr, uint64_t len, const char *file,
		       const char *path, uint64_t off);
	void *ctx;
	/* A debugger that protects pages of the tracee (gdbstub's watch.c)
	 * hooks here. fault: a SIGSEGV of the tracee in debug mode;
	 * returning 1 makes it an ENG_TRAP (e->trap) instead of the
	 * program's signal. perform: called with the current thread at the
	 * seccomp stop of a call the engine is about to perform (the kernel
	 * then reads or writes the program's memory itself), left at that
	 * same stop. */
	int (*fault)(void *arg, const siginfo_t *si);
	void (*perform)(void *arg);
	void *hook_arg;
	struct eng_task *tasks;	/* the threads not gone (and some that are,
				   dropped in batches: eng_drop_gone) */
	int ntasks, ti;		/* ti: the current one */
	int made;		/* threads and processes made so far, gone
				   ones too (each one's born numbers it) */
	int kept;		/* ntasks after the last eng_drop_gone */
	struct emufs fs;	/* the files mapped shared (IT_EMUFILE) */
	/* Set by a caller that never looks at the tracee between events
	 * (replay): runs of buffered calls (TRF_BUFFERED) before event
	 * limit (0: no limit) are answered inside the process, and
	 * eng_resume() returns the event after such a run. */
	int batch;
	uint64_t limit;
	/* Set by a caller that looks at nothing but the program's output
	 * between events (replay without --stack): a call that can only
	 * succeed and writes nothing may end as its thread goes on, with
	 * no stop at its end, except at event limit. Not from a checkpoint:
	 * traced must be known from the start. */
	int lazy;
	int traced;		/* a tracer in the tree attached to a process */
	/* With debug set: the preemptions of process reexec (as recorded;
	 * 0: none) are re-executed instead of set. The thread runs on (its
	 * SIGTRAPs end eng_resume() as ENG_TRAP), and the caller arms an
	 * int3 at eng_rematch_rip(); the event is replayed when the thread
	 * is at the recorded place again (rematch.h), or its state set when
	 * the search gives up. */
	uint32_t reexec;
	struct rematch rm;	/* that search (cleared at every event) */
	int preempt_how;	/* RM_*: how the last preemption was replayed */
};

/* Open the trace in dir and check its start record. Dies with status 125
 * and a one-line message on a bad trace. */
void eng_open(struct engine *e, const char *dir);

/* A tool drives a replay through the calls below and reads struct
 * engine's fields; it never writes them. What it hooks in and how it
 * wants the replay run are given with these. */
struct eng_hooks {
	void (*emit)(void *ctx, uint64_t ev, uint32_t pid, int stream, const uint8_t *data,
		     size_t len);	/* e->emit */
	void (*mapped)(void *ctx, uint64_t addr, uint64_t len, const char *file,
		       const char *path, uint64_t off);	/* e->mapped */
	int (*interrupt)(void *ctx);	/* e->interrupt */
	void *ctx;
};
struct eng_opts {
	int batch;		/* e->batch */
	uint64_t limit;		/* e->limit */
	int debug;		/* e->debug */
	int lazy;		/* e->lazy */
};
/* Set the hooks (any may be NULL) and the options, after eng_open() or
 * eng_open_at(). */
void eng_set_hooks(struct engine *e, const struct eng_hooks *h);
void eng_set_opts(struct engine *e, const struct eng_opts *o);
/* A debugger that protects pages hooks its fault and perform (see the
 * fields) here, with their argument. */
void eng_hook_pages(struct engine *e, int (*fault)(void *arg, const siginfo_t *si),
		    void (*perform)(void *arg), void *arg);
/* With debug set, re-execute the preemptions of process pid (as
 * recorded; 0: none) instead of setting them (e->reexec). */
void eng_set_reexec(struct engine *e, uint32_t pid);
/* A call was injected (eng_inject()) into the current thread at a stop
 * where none of its own was pending: it is now at that call's
 * syscall-exit stop. */
void eng_left_at_sysexit(struct engine *e);

/* Replay the next event. Returns 1, or 0 when the program has exited
 * (e->status). Dies with status 125 on divergence or a bad trace, naming
 * the event. */
int eng_step(struct engine *e);

/* What ended an eng_resume(). */
enum {
	ENG_EVENT = 1,	/* the next event was replayed; e->cur is it */
	ENG_TRAP,	/* a SIGTRAP (breakpoint, single step, watchpoint) came
			   before the next event (only with e->debug); e->trap */
	ENG_INTR,	/* e->interrupt asked to stop */
	ENG_EXIT,	/* the program has ended */
	ENG_AGAIN,	/* with pt_trace_all and e->debug: the thread made a
			   call rec let through (e->perform was told); no
			   event yet: arm again and resume */
};
/* Let the tracee run (step 0) or execute one instruction (step 1) until
 * one of the above. A step onto a syscall instruction replays the call
 * and ends with ENG_EVENT, the call's effects done. */
int eng_resume(struct engine *e, int step);

/* When the next event is a preemption that eng_resume() re-executes (see
 * e->reexec), its recorded rip; else 0, and 0 too while the thread runs
 * to the count recorded there (count.h), armed by the first call. */
uint64_t eng_rematch_rip(struct engine *e);
/* Whether the stop eng_resume() just returned ENG_TRAP for was the count
 * trap of a counted preemption (count.h), once: the thread is at the
 * recorded count, and eng_rematch_rip() now gives the rip to arm. */
int eng_count_trapped(struct engine *e);

/* The next event, read ahead (NULL if the stream ends). */
const struct trace_rec *eng_peek(struct engine *e);

/* A stopped copy of the replay and what the engine needs to carry on
 * from it. Each process of the tree is copied on its own (a fork copies
 * one thread): the copy holds its memory and process-wide state; the
 * state of each of its threads is kept here, and eng_restore() makes the
 * threads again in a fork of the copy. */
struct eng_snap {
	pid_t pid;		/* the copy of the current thread's process */
	struct user_regs_struct regs;	/* the current thread's registers */
	struct trace_pos pos;
	struct trace_rec cur, ahead;
	uint8_t *curbuf, *aheadbuf;
	int held, done, status;
	struct rematch rm;
	struct emufs_saved files;	/* the emulated files' bytes then */
	struct eng_shm {		/* other shared mappings' bytes then */
		uint64_t addr, len;
		uint8_t *data;
		int proc;		/* of procs[proc] */
	} *shm;
	int nshm;
	struct eng_snap_proc {
		pid_t pid;		/* its copy, stopped */
		uint32_t rtgid;
		struct user_regs_struct regs;	/* of the copy's one thread */
		uint8_t *tsc;	/* its patched rdtsc places (tsc_export()) */
		size_t tsclen;
		uint8_t *cnt;	/* its counted places and slots (count_export()) */
		size_t cntlen;
	} *procs;
	int nprocs;
	struct eng_task *tasks;	/* the engine's threads then (entries copied) */
	struct eng_snap_thread *th;	/* and the state of each live one */
	int ntasks, ti;
	char exe[4200];
};
/* Copy every thread and process of the replay into *s. Returns 0, or -1
 * when one is at a stop that cannot be copied (a signal about to be
 * delivered, inside a clone, vfork or execve, on its way out; a process
 * whose first thread has ended), or the shared mappings (which a fork
 * shares, so s keeps their bytes) hold more than 64 MiB. */
int eng_snap(struct engine *e, struct eng_snap *s);
/* Replace every thread and process of the replay by copies of s's (s
 * stays as it is): a fork of each process's copy, its other threads
 * cloned in it, each thread given its registers, FP state, signal mask,
 * clear-tid address and alternate signal stack; threads that were inside
 * a call whose end is to come enter it again. */
void eng_restore(struct engine *e, const struct eng_snap *s);
void eng_snap_free(struct eng_snap *s);

/* Whether every thread and process of the replay is at a place where it
 * can be copied (see eng_snap()). */
int eng_can_copy(struct engine *e);
/* Why not: NULL when eng_can_copy() would say yes, else the first thing
 * found that stops a copy, a phrase for a message ("a signal on its way
 * to a thread", "a clone, fork or vfork under way"...). */
const char *eng_copy_blocker(struct engine *e);
/* After calls were injected into thread k (registers r before them,
 * eng_inject()), put it back where the engine expects it: one inside a
 * call enters the call again. Dies if it cannot. */
void eng_injected(struct engine *e, struct eng_task *k, const struct user_regs_struct *r);
/* Make the replay's threads those of tasks[n] (malloc'd, with their entry
 * records; the engine owns them now), ti the current one: kills the
 * replay's threads and processes, then for each of the nprocs processes
 * (recorded id rtgid[j]) takes the stopped one-thread process pid[j] as
 * its first thread, clones its other threads in it, and gives each live
 * thread i the state th[i] (set_thread). Dies if the kernel refuses. */
void eng_adopt(struct engine *e, struct eng_task *tasks, int n, int ti, const uint32_t *rtgid,
	       const pid_t *pid, int nprocs, const struct eng_snap_thread *th);
/* Put back the bytes of the memory that a fork of s shares with the
 * replay (files mapped shared, shared anonymous mappings) as they were
 * at eng_snap(): after something ran in the fork. */
void eng_snap_undo(struct engine *e, const struct eng_snap *s);

/* Registers of the current thread as the program sees them after the
 * current event. Returns 0, or -1 (zeros in *r) when the thread has
 * ended. */
int eng_regs(struct engine *e, struct user_regs_struct *r);

/* Registers of thread k (one of e->tasks) like eng_regs(); a vfork
 * parent in the kernel until its child execs or exits has those it went
 * in with. Returns 0, or -1 when the thread has none (gone, or ending). */
int eng_task_regs(struct engine *e, const struct eng_task *k, struct user_regs_struct *r);

/* (In seekopen.c, above seek.c: the engine itself never calls seek.c.)
 * Open the trace in dir like eng_open(), then, when tseek(1) left a
 * checkpoint at or before event ev (and after event 1) in dir/seek, make
 * the replay that checkpoint's: e->cur is its event. A damaged or stale
 * index or checkpoint is named in one line on stderr and the replay
 * starts from the beginning. Returns the checkpoint's event, or 0 when
 * the replay starts from the beginning. Give the hooks and options
 * (eng_set_hooks, eng_set_opts) after this call. */
uint64_t eng_open_at(struct engine *e, const char *dir, uint64_t ev);


/* The event after which process pid (as recorded) of the trace in dir
 * runs its program: its first execve that succeeded, else the clone-like
 * call that made it; 0 if no call made it. */
uint64_t eng_process_start(const char *dir, uint32_t pid);

/* Make the thread that runs until the next event the current one (the
 * engine otherwise switches when it resumes), so that what is armed on
 * e->p before a resume is armed on the thread that will run. */
void eng_ready(struct engine *e);

/* How many threads of the replay have not ended. */
int eng_live(const struct engine *e);

/* The live thread recorded as rtid, its p up to date, or NULL. */
struct eng_task *eng_task_of(struct engine *e, uint32_t rtid);

/* Kill every thread and process of the replay. */
void eng_close(struct engine *e);

#endif
