/* calls.h: a syscall's entry and exit: the call's record, its inputs and
 * outputs. */
#ifndef REWIND_REC_CALLS_H
#define REWIND_REC_CALLS_H

#include "rec.h"

/* Whether syscall nr with arguments a is a futex op that takes a PI
 * lock, blocking while another thread owns it. */
int pi_acquire(long nr, const uint64_t *a);

/* The end of the syscall cur is in: its result and outputs, as the rest
 * of its record (nothing came between) or as a TR_SYSRET. */
void syscall_exit(void);

/* t, stopped at a call's exit or in its own code, was moved by another
 * thread's sched_setaffinity: its CPUID faults if it may now run off the
 * CPU whose answers the trace keeps (tsc_check_cpu). Ends the recording
 * when that fails. */
void check_moved(struct task *t);

/* cur's run of user code ends there. Stage the record, and let the
 * kernel run the call while another thread runs. */
void syscall_entry(void);

/* Read REWIND_STOP_IN_CALL (a knob for tests, rec(1)): before the
 * program starts; a name that is no system call ends rec, exit 2. */
void stop_in_call_setup(void);

/* cur, resumed to stop at each call's entry (p.entries), is at one
 * (registers r): a call the filter lets through (pt_untraced_call) is
 * taken there as at a seccomp stop, its record marked TRF_ATENTRY;
 * another goes on to its seccomp stop. */
void syscall_at_entry(const struct user_regs_struct *r);

#endif
