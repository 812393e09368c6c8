/* task.h: the threads of the recorded tree, and their table (tasks.c). */
#ifndef REWIND_REC_TASK_H
#define REWIND_REC_TASK_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "pt.h"
#include "trace.h"

/* A thread of the recorded tree. One runs user code at a time; any
 * number may be inside syscalls. */
struct task {
	struct pt_proc p;	/* p.pid is the thread id */
	pid_t tgid;
	int state;		/* T_* */
	int sig;		/* signal to deliver when resumed */
	int sig_in;		/* stopped for a signal that came, not for its
				   timeslice's end: it runs on after */
	int fresh;		/* its first stop (SIGSTOP) is still to come */
	int stopping;		/* we sent it SIGSTOP to preempt it */
	/* The syscall it is in (T_KERNEL). */
	long nr;
	uint64_t a[6];
	struct trace_writer stage;	/* the call's entry record, built
					   before it is known whether other
					   records come before its end */
	int open;		/* the entry is not written yet */
	uint64_t seq;		/* entry order among open ones */
	int at_exit;		/* the last stop was a syscall exit */
	struct user_regs_struct exit_regs;
	uint64_t exit_pend[2];	/* signals pending at that exit, its own
				   and the process's: the only ones it can
				   take there */
	uint64_t mask;		/* its signal mask at its last syscall exit:
				   an rdtsc trap's forced SIGSEGV (SIGILL)
				   unblocks that signal, rec blocks it again */
	siginfo_t stash[64];	/* async signals held for a syscall boundary */
	int nstash;
	int injected;		/* signal number raised at the last entry */
	int stop_due;		/* REWIND_STOP_IN_CALL's SIGSTOP is on its way */
	int stop_again;		/* its next call restarts one that it stopped */
	uint64_t sig_top;	/* while a handler it was sent may run: the
				   stack pointer it was interrupted at (0:
				   none); the frame and handler lie below */
	int ign_held;		/* ignored signals blocked across its call, */
	uint64_t ign_mask;	/* its own mask kept here (ignwait.h) */
	int held_blocked;	/* it blocks every held signal: no preemption
				   for them until its next syscall */
	uint64_t advance;	/* preempted, it runs on to its next counted
				   edge, armed to trap at this count (0: not) */
	int advance_failed;	/* its timeslice ended first: the next
				   preemption takes it where it is */
	int at_edge;		/* stopped at that edge (a point may be taken) */
	int chaos;		/* the advance is --chaos's, not a preemption's:
				   at its edge, another thread takes over */
	struct user_regs_struct born_regs;	/* at its first stop, where its
						   clone left it (a thread that
						   has not run since is settled) */
	int out;		/* the call sends data to stdout or stderr */
	struct user_regs_struct entry_regs;	/* at the entry of that call */
	/* ptrace emulated for a tracer inside the tree (see ptemu.h). */
	struct task *tracer;	/* the task that attached to this one */
	int pstop;		/* stopped for its tracer: not scheduled */
	int moved;		/* another thread set its affinity: CPUID may
				   have to fault before it runs (check_moved) */
	int clone_held;		/* REWIND_CLONE_GIVES_WAY: stopped at its
				   clone's event until another thread runs */
	int seized;		/* attached with PTRACE_SEIZE */
	int report;		/* wait status its tracer's wait4 gets next */
	uint64_t emu_out[2][2];	/* memory an emulated call wrote: address, length */
	int nemu_out;
	pid_t exec_tid;		/* its id before its execve made it the leader */
	pid_t child;		/* the thread its clone-like call made, as rec sees it */
	uint64_t clone3_put;	/* a clone3's flags as the program wrote them,
				   which its struct has without CLONE_UNTRACED
				   until the call's end (0: none) */
	struct task *parent;	/* the thread that made it (its real parent) */
	int psig, pflags;	/* stopped for its tracer at the delivery of psig */
	siginfo_t psi;
	int pwait;		/* parked at a wait4 for a stop of a tracee */
	int kicked;		/* its wait4 in the kernel was interrupted for one */
	int dirty;		/* its tracer changed its registers or memory */
	int popts;		/* the PTRACE_O_* options its tracer set */
	int psys;		/* resumed by PTRACE_SYSCALL: stops at the next call
				   (p.entries then: want_calls, ptemu.c) */
	int atentry;		/* TRF_ATENTRY: its call was taken at its entry
				   stop (syscall_at_entry), else 0 */
	int pcall;		/* stopped for its tracer at a call: P_ENTRY... */
	int ptrap;		/* its execve's SIGTRAP stops it once let go */
	int pgroup;		/* its stop for its tracer is a group-stop */
	int pgsig;		/* the signal of the group-stop its tracer let it
				   run out of: its group stays stopped (a
				   PTRACE_INTERRUPT reports it) until a SIGCONT */
	int pstepsys;		/* single-stepped into a syscall: the step's
				   SIGTRAP stops it at the call's end */
	int plisten;		/* let go with PTRACE_LISTEN: in its group-stop
				   still, it traps again at a SIGCONT */
	uint64_t pmsg;		/* what PTRACE_GETEVENTMSG reads (the kernel's
				   ptrace_message: inherited, kept between) */
	int pev;		/* the clone event its tracer sees at the call's end */
	int pvfdone;		/* a PTRACE_EVENT_VFORK_DONE stop comes next */
	int pexit;		/* its call's exit stop (if PTRACE_SYSCALL) comes next */
	int pinside;		/* stopped at an event inside its call (rax -ENOSYS) */
	int ptinfo;		/* psi is the siginfo of a syscall or event stop */
	int pexitev;		/* its PTRACE_EVENT_EXIT stop was shown */
	uint64_t since;		/* when it became ready (in a count of such) */
	int blocked;		/* its call blocked: others ran meanwhile */
	int woke;		/* ready since such a call ended, or new: a
				   thread of its process that ran longer gives
				   way soon (woke_waits) */
	uint64_t vrun;		/* ns it ran its own code (placed on waking) */
	uint64_t run_t0;	/* when it last began to (T_RUN) */
	int lib_holds;		/* its process's header holds its lib_sp */
	uint64_t lib_sp;	/* else its lib_sp, kept here (bufabi.h) */
	/* What the program set of what rewind sets for itself (rdtsc
	 * trapping, no_new_privs, a seccomp filter, seccomp strict mode,
	 * the dumpable flag an ordinary user's rec keeps on), for the calls
	 * that read them back; inherited by the threads and processes it
	 * makes. */
	struct { int tsc, nnp, seccomp, strict, nodump; } own;
	struct { int known; uint64_t act[4]; } tact[2];	/* SIGSEGV's and SIGILL's
				   action as its process set it (trapact.c;
				   known 1, 0 not, -1 never: shared) */
	uint64_t vdso_slot, vdso;	/* the hidden auxv entry, the vDSO */
	uint64_t robust;	/* its robust list's head (set_robust_list) */
};
enum { T_NEW, T_READY, T_RUN, T_KERNEL, T_STOPPED /* in a group-stop, until SIGCONT */ };
/* pcall: stopped at a call's entry (at rec's seccomp stop, the call not
 * yet begun), at its exit, or let go at its entry (to begin it when
 * scheduled). */
enum { P_ENTRY = 1, P_EXIT, P_GO };

/* The task whose stop is being handled (tasks.c). */
extern struct task *cur;

/* t may run user code again; threads run in the order they got ready. */
void ready(struct task *t);

/* t, stopped at a call's exit (at_exit), runs on from there: the signals
 * pending now reach it there, before any of its own code, as the kernel
 * delivers them on its way out, so they join exit_pend (do_signal
 * delivers them at that boundary, replay raises them there). Nothing
 * when it is not at an exit. */
void exit_pend_now(struct task *t);

/* The i-th task being recorded, or NULL from the last on. */
struct task *task_nth(int i);

/* The task of thread tid, or NULL. */
struct task *find_task(pid_t tid);

/* A new task for thread tid of process tgid, not yet seen to stop. */
struct task *add_task(pid_t tid, pid_t tgid);

/* t is gone: out of the table, freed. Its tracees are untraced before
 * (ptemu_tracer_gone). */
void drop_task(struct task *t);

/* Wait for the next stop of any task (or of tid, when not -1; with
 * nohang, 0 if there is none yet). From any task, it returns 0 too when
 * one in a group-stop may run again. It flushes and takes SIGTERM
 * between. */
pid_t wait_any(pid_t tid, int *st, int nohang);

/* Handle one stop (wait status st) of cur, as main's loop would, through
 * R.on_stop: for a file below stop.c that waits for another stop (a new
 * thread's, a tracee's) in the middle of handling its own. */
void handle_other(int st);

/* --chaos's random numbers (xorshift from the seed). */
uint64_t rnd(void);

/* The thread clone/fork made starts with a SIGSTOP; once it and its
 * parent's event are both seen, it may run. */
void new_task(pid_t tid, struct task *parent, int thread);

/* The clone flags of the call t is in. */
uint64_t clone_flags(struct task *t);

/* The id thread tid (as rec sees it) sees for itself: the last one on
 * the NSpid line of its status, or ret where that cannot be read. */
uint32_t self_id(uint32_t tid, int64_t ret);

/* Whether signal si of cur was sent by rec (tkill). In a pid namespace
 * rec's id shows as 0 (it is outside). */
int sig_ours(const siginfo_t *si);

/* Whether pid is a process (or thread) being recorded. */
int in_tree(uint64_t pid);

/* Whether thread t waits to run and may: ready, not held for its tracer,
 * and no thread of its process in exit_group. That call kills the
 * others once the kernel runs it, and its record is its entry: replay
 * lets none of them run after it (linger, unpinned on a loaded machine:
 * its new thread made three calls after main's exit_group, and replay
 * diverged). */
int task_runnable(const struct task *t);

/* Whether a thread other than the running one waits to run. */
int others_ready(void);

/* Called for each task in a group-stop that a SIGCONT came for, once it
 * is ready again; NULL until the emulated ptrace needs it (ptemu.c sets
 * it when a tracee first listens, to trap it again). */
extern void (*tasks_continued)(struct task *t);

#endif
