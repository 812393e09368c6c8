/* trapact.h: the actions of SIGSEGV and SIGILL as each process set them,
 * to give one back where the fault of a trap of rec's own (rdtsc under
 * PR_SET_TSC, a patched site's ud2) made the kernel reset it. */
#ifndef REWIND_REC_TRAPACT_H
#define REWIND_REC_TRAPACT_H

#include <signal.h>
#include <stdint.h>
#include <sys/user.h>
#include "task.h"

/* The root process starts with these ignored (bit n-1: signal n), the
 * rest at their default. */
void trapact_start(struct task *root, uint64_t ignored);

/* cur at the entry of call nr (arguments a): a sigaction of SIGSEGV or
 * SIGILL is noted for each thread of its process. */
void trapact_entry(long nr, const uint64_t a[6]);

/* New thread or process child, made by parent's clone-like call with
 * flags. */
void trapact_clone(struct task *child, const struct task *parent, uint64_t flags);

/* cur's execve succeeded: caught signals are back at their default. */
void trapact_exec(void);

/* sig (siginfo si) reaches cur's handler or default action: a handler
 * with SA_RESETHAND is reset; after a fault the handler does not take,
 * the action is no longer known. */
void trapact_delivered(int sig, const siginfo_t *si);

/* cur stopped at rec's trap with sig (registers r), which the program
 * blocked before it (blocked): the kernel unblocked it and, blocked or
 * ignored, reset its action. Undo both, and add an IT_TRAPACT item
 * saying so to the record being written. */
void trapact_fix(int sig, int blocked, const struct user_regs_struct *r);

#endif
