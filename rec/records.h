/* records.h: the records of a signal delivered and of a thread's whole
 * state (TR_PREEMPT), which replay makes again. */
#ifndef REWIND_REC_RECORDS_H
#define REWIND_REC_RECORDS_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

/* Record signal sig (TRS_* flags, siginfo si) delivered to cur now. */
void record_signal(int sig, int flags, const siginfo_t *si);

/* Record cur's state as a TR_PREEMPT (registers, FP/vector state, its
 * process's memory by blocks, each block's bytes once in the trace;
 * flags TRP_*): replay makes the state so there. Where counting tells
 * the place (TRP_RAN given, at a counted edge: advance.h), a point
 * instead: the count and the blocks' hashes without their bytes, which
 * replay re-executes to.
 * Returns -1, having recorded nothing, when cur is being killed. */
int record_state(struct user_regs_struct *regs, uint64_t flags);

/* Whether cur could be recorded as a point wherever its own code is:
 * its process is counted, every executable mapping is one counting saw,
 * no thread of it is in a signal handler, every other thread is where
 * the trace has it, it has no tracer in the tree, and REWIND_NO_POINTS=1
 * is not set. */
int record_could_point(void);

/* Process tgid ended or replaced its memory (execve): the copies of its
 * blocks kept to record their changes small are dropped, so that rec's
 * memory follows the live processes, not all that ever ran. */
void record_forget(pid_t tgid);

#endif
