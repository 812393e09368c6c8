/* sig.h: signals delivered to the program, rdtsc stops, and preemption
 * (its state record, TR_PREEMPT, is written by records.c). */
#ifndef REWIND_REC_SIG_H
#define REWIND_REC_SIG_H

#include "rec.h"

/* A signal-delivery-stop of cur (running). Returns 1 if cur keeps
 * running (resumed), 0 if it stopped running, or minus the status to
 * record for its end when rec is to let it go (detach it) to die of its
 * fault (a pid namespace's init: see init_dies()). */
int do_signal(int sig);

/* cur, stopped in its own code, is preempted there as by a SIGSTOP of
 * rec's (held signals delivered): returns 1 if it runs on to its next
 * counted edge first (advance.h), 0 if it stopped running. */
int sig_preempt(struct user_regs_struct *regs);

/* Resume thread t (stopped between syscalls, or at a signal's delivery)
 * with signal sig (0: none). With one, the stack pointer it is at is
 * noted (t->sig_top), unless a handler runs already: the kernel writes
 * the signal's frame below it, some of it (the FP/vector state's parts
 * in their initial state, alignment) left as the stack held it, which
 * differs between rec and replay. */
struct task;
void sig_resume(struct task *t, int sig);

#endif
