/* inject.h: system calls injected into a stopped thread through ptrace,
 * and what is built on them alone: forking its process, making a thread
 * in it, reading a thread's state. Below the engine: knows only pt.h. */
#ifndef REWIND_INJECT_H
#define REWIND_INJECT_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "pt.h"

/* A stopped thread's state, as a checkpoint keeps it. */
struct eng_snap_thread {
	struct user_regs_struct regs;
	uint64_t mask;	/* blocked signals */
	uint8_t *xs;	/* FP/SSE/AVX state (XSAVE layout) */
	size_t xlen;
};

/* Make the stopped process p (registers r) run syscall nr with args a
 * through the syscall instruction at address at (written there for the
 * call when the bytes differ, then put back). The call passes the
 * seccomp stop like any other. With child non-NULL, clone events are
 * traced and *child gets the new process. Afterwards p is at the call's
 * syscall-exit stop with registers r. Returns 0 with *ret the call's
 * result (rax), or -1. */
int eng_inject(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
	       const uint64_t a[6], uint64_t *ret, pid_t *child);

/* eng_inject (no clone) with every signal blocked across the call, so
 * that one that comes (a child's SIGCHLD) stays pending for the program
 * instead of stopping the call before it runs; a SIGSTOP, which cannot
 * be blocked, is passed over and sent again after. For calls rec and
 * replay must both make whatever the timing (counting's trampolines,
 * CPUID faulting): given up in one run only, the runs would differ. */
int eng_inject_quiet(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
		     const uint64_t a[6], uint64_t *ret);

/* Set the action of signal sig of the process of stopped thread p
 * (registers r) to act, the kernel's struct (handler, flags, restorer,
 * mask), through an injected rt_sigaction (eng_inject_quiet); the struct
 * is written below the stack's red zone meanwhile. Returns 0 or -1. */
int inject_sigaction(struct pt_proc *p, const struct user_regs_struct *r, int sig,
		     const uint64_t act[4]);

/* Fork the process of stopped thread p (registers r) through an injected
 * clone: the copy has one thread, with registers r, stopped; it gets no
 * exit signal. Returns its pid, or -1. */
pid_t eng_fork(struct pt_proc *p, const struct user_regs_struct *r);
/* The registers, FP state and signal mask of stopped thread p into *th
 * (th->xs is (re)allocated). Returns 0 or -1. */
int eng_thread_state(struct pt_proc *p, struct eng_snap_thread *th);
/* Make a new thread in p's process with clear-tid address ctid (0:
 * none); it waits at its first stop. Returns its pid or -1. */
pid_t eng_clone_thread(struct pt_proc *p, uint64_t ctid);
/* Put thread p (registers r, as at the seccomp stop of a call it had
 * entered) back at that stop by running its syscall instruction again.
 * Returns 0, or -1 when it did not stop there. */
int eng_reenter(struct pt_proc *p, const struct user_regs_struct *r);

#endif
