/* rec.h: the recorder's state, one struct shared by rec's files (the
 * task table, the trace being written, the schedule's clock). */
#ifndef REWIND_REC_REC_H
#define REWIND_REC_REC_H

#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include "task.h"
#include "trace.h"

/* Timeslices are counted in ticks of the interval timer. */
#define TICK_US 5000
#define SLICE_TICKS 4
/* Ticks after a SIGTERM passed on to the program (R.term_passed) after
 * which rec ends the recording, as rr gives its tracees 5 s; and after
 * which another such signal ends it at once (timeout(1) sends two at
 * once, which are one). */
#define TERM_GRACE_TICKS (5000000 / TICK_US)
#define TERM_AGAIN_TICKS (1000000 / TICK_US)
/* A woken thread runs before a thread of its process that ran longer
 * than it by WOKE_GRAN or more (ns of their own code); on waking it is
 * placed at most WOKE_CREDIT behind the others. (At 1 ms, java's main
 * thread gave way to its compiler threads twice as often, 1.18x the
 * time; at 4 ms 1.11x, against 1.02x without.) */
#define WOKE_GRAN 4000000ull
#define WOKE_CREDIT 5000000ull

struct recorder {
	struct trace_writer w;	/* the events file */
	char dir[4096];		/* the trace directory */
	uint64_t event;		/* the next record's number */
	struct task **tasks;
	int ntasks;
	pid_t root;		/* the recorded program's first process */
	pid_t pgid;		/* its process group (rec(1): PROCESS GROUP) */
	uint64_t seq;		/* the next syscall entry's order (task.seq) */
	int chaos;
	uint64_t seed, rng;
	/* REWIND_CLONE_GIVES_WAY=1, for tests: a thread that makes a
	 * thread (clone, clone3) lets the others run at once, and is held
	 * at the call's clone event until another runs its own code, so
	 * that its new thread runs before the call's end is seen, as on a
	 * loaded machine. */
	int clone_gives_way;
	uint64_t sig_ign, sig_mask;	/* what rec was started with (IT_SIGS) */
	int count;		/* counting progress (count.h) */
	int tsc_way;		/* how rdtsc is made to stop (enum tsc_way) */
	/* Files already in files/, by identity, with their hash. */
	struct { dev_t dev; ino_t ino; off_t size; struct timespec mtime; uint64_t hash; int by_path; } fcache[256];
	int nfcache;
	/* The terminal rec found its process group in the foreground of,
	 * which it hands to the program's group (as a shell would to a
	 * job) and takes back at the end, or -1. */
	int tty_fd;

	/* The schedule, also read and written by the SIGALRM handler. */
	volatile pid_t run_tid;		/* the thread running user code */
	volatile int run_ticks;		/* since it was scheduled */
	volatile int seg_ticks;		/* since its last syscall */
	volatile int slice_ticks;
	/* Ticks without a syscall after which the running thread is
	 * stopped: its timeslice when others wait, HELD_TICKS when only a
	 * held signal waits (the next syscall is the cheaper place to
	 * deliver it), 0 never. */
	volatile int want_ticks;
	volatile pid_t preempting;	/* the thread we sent SIGSTOP */
	/* The thread that just gave way (a yield, the end of its
	 * timeslice, a preemption, or --chaos's coin): with --chaos,
	 * another runs next. */
	pid_t gave_way;
	int ticks_to_flush;
	volatile sig_atomic_t flush_due, term_sig;
	/* The SIGTERM or SIGHUP rec passed on to the program's group (0:
	 * none yet), and the ticks since: after TERM_GRACE_TICKS without
	 * the program's end (or at a second one) it is term_sig. */
	volatile sig_atomic_t term_passed;
	volatile int term_grace;
	/* Ticks since term_sig while rec was too busy to take it (hashing
	 * or copying a huge file): after TERM_TICKS it leaves at once. */
	volatile int term_ticks;

	/* What handles one stop (wait status st) of cur: stop.c's handle,
	 * set once by main.c. The files below it that wait for another
	 * stop in the middle of their own call it through handle_other
	 * (task.h). */
	void (*on_stop)(int st);
};

/* The one recorder (tasks.c). */
extern struct recorder R;

#endif
