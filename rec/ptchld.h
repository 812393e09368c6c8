/* ptchld.h: the SIGCHLD the kernel sends a tracer's process when a
 * tracee stops (CLD_TRAPPED, CLD_STOPPED), sent by rec for the stops it
 * emulates (ptemu.c), with the siginfo the program would have seen. */
#ifndef REWIND_REC_PTCHLD_H
#define REWIND_REC_PTCHLD_H

#include <stdint.h>
#include "task.h"

/* Tracee t stopped for its tracer (its report set): its tracer's
 * process gets SIGCHLD, unless it ignores it or set SA_NOCLDSTOP. Call
 * before a wait4 parked for t is let go (the signal is pending at its
 * end, as natively). */
void ptchld_notify(struct task *t);

/* Tracee t, whose end (wait status st) only its tracer tr's wait4
 * reports (tr is not its parent, or t is not a process's last thread),
 * ended: tr's process gets the SIGCHLD the kernel sends then
 * (CLD_EXITED, CLD_KILLED or CLD_DUMPED), unless it ignores it. */
void ptchld_ended(struct task *t, struct task *tr, int st);

/* cur is at a syscall entry (call nr, arguments a): rt_sigaction of
 * SIGCHLD, whose SA_NOCLDSTOP is kept for ptchld_notify. */
void ptchld_entry(long nr, const uint64_t a[6]);

/* t ended: if it was its process's last thread, what is kept for the
 * process goes. */
void ptchld_gone(struct task *t);

/* cur's execve succeeded: SIGCHLD's flags are reset. */
void ptchld_exec(void);

/* cur is at the delivery of signal sig, before it is handled: a
 * SIGCHLD rec sent gets the siginfo the kernel would have given. */
void ptchld_signal(int sig);

/* cur is at the exit of its call, before it is recorded: a
 * rt_sigtimedwait, or a read of a signalfd, that took a SIGCHLD rec sent
 * gets the siginfo the kernel would have given. */
void ptchld_exit(void);

#endif
