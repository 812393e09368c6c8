/* advance.h: a counted thread rec preempts runs on to its next counted
 * edge and is recorded there, where its count alone tells the place. */
#ifndef REWIND_REC_ADVANCE_H
#define REWIND_REC_ADVANCE_H

#include <sys/user.h>

/* cur (regs: its registers), stopped in its own code to be preempted
 * where it could be a point (record_could_point), is armed to trap at
 * its next counted edge and let run: returns 1 (it runs), or 0 when it
 * is to be recorded where it is (not counted, not a point, stopped at a
 * call's end, or its last advance came to nothing). */
int advance_start(const struct user_regs_struct *regs);

/* cur, advancing, stopped with signal sig (regs: its registers): returns
 * 1 when this is its edge's trap (taken: its slot and flags are as an
 * unarmed run has them, regs read again, and the steps out of the
 * trampoline are the caller's; the trap may be of an edge before the one
 * armed for, taken before a stop that armed it again); -1 when the trap
 * came inside the syscall buffer's call (it runs on, armed for the edge
 * after), or came to a thread no longer armed (it runs on past it);
 * else 0, the advance given up and its count disarmed. */
int advance_stopped(int sig, struct user_regs_struct *regs);

/* cur, advancing with a signal held, stopped at a call's entry (seccomp)
 * before its edge: the call is undone, and cur stopped before its
 * syscall instruction, where the signal is delivered (the call is made
 * when the handler returns). Returns 1 (r: its registers there), 0 when
 * that is not so (the caller goes on with the call), -1 if it ended
 * meanwhile (*st: how). */
int advance_call(struct user_regs_struct *r, int *st);

/* t is about to take its process's counting slot: a thread of the
 * process still armed (stopped where none of the above saw it) is
 * disarmed first, since the slot holds its edges left. */
struct task;
void advance_before_switch(struct task *t);

/* Under --chaos, t (about to run, holding its process's counting slot,
 * one of several threads) is armed to trap 1 to 2^20 of its counted
 * edges ahead, and is preempted there as at a timeslice's end
 * (advance_stopped returns 1): so a race shows between any two edges,
 * not only where a timer tick found the thread. */
void advance_chaos(struct task *t);

/* cur stopped otherwise (a call, an event): the advance, if any, is
 * given up. */
void advance_cancel(void);

/* cur was recorded: its next preemption may advance again. */
void advance_done(void);

#endif
