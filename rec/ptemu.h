/* ptemu.h: ptrace for tracers inside the recorded tree, answered by rec
 * (the real tracer of every thread) and recorded like any call's result,
 * so replay needs no tracer of its own. */
#ifndef REWIND_REC_PTEMU_H
#define REWIND_REC_PTEMU_H

#include <signal.h>
#include <stdint.h>
#include <sys/user.h>
#include "task.h"

/* cur is at a syscall entry (registers regs): if it is a ptrace, or a
 * wait4 for a thread it traces, answer it here and make the kernel skip
 * it (returns 1), or leave that wait4 parked at its entry until a tracee
 * stops (returns 2). Returns 0 for any other call. Refuses at once, by
 * name, what is not emulated. */
int ptemu_call(struct user_regs_struct *regs);

/* Whether cur's wait4 (arguments a) is for a stop of a thread it traces
 * here: 0 if not (the kernel answers); 1 with *ret the call's result; 2
 * when no tracee has a report and the call would block. */
int ptemu_wait(const uint64_t a[6], int64_t *ret);

/* cur ended (wait status st): if its tracer is not its parent, only
 * the tracer's wait4 reports it, answered here. */
void ptemu_exited(int st);

/* Tracee t stopped (or ended: gone): the wait4s parked for it (of
 * threads of its tracer's process) end now, answered here, or for an
 * end by the kernel (the tracee is their child). */
void ptemu_wake(struct task *t, int gone);

/* cur, which is traced, is at the delivery of signal sig (TRS_* flags,
 * siginfo si): it stops there for its tracer, who decides; the signal is
 * recorded when it is delivered. */
void ptemu_signal_stop(int sig, int flags, const siginfo_t *si);

/* cur, which is traced, entered a group-stop (stop signal sig): it
 * stops there for its tracer, which sees the group-stop. */
void ptemu_group_stop(int sig);

/* cur wrote len bytes at addr into t's memory (through /proc/PID/mem):
 * if t is traced by cur's process, returns 1: into its code (its
 * breakpoints), kept by ptpatch.c; else t is stopped between calls and
 * its state is recorded when it goes on (replay makes it then). Else
 * 0. Refuses, by name, a write into the data of a tracee stopped at a
 * syscall or blocked in one. */
int ptemu_poked(struct task *t, uint64_t addr, uint64_t len);

/* What t's tracer changed in it (registers, memory, a step), if
 * anything, is recorded now as t's state, which replay sets (at a
 * call's entry stop: as before its syscall instruction). */
void ptemu_record_dirty(struct task *t);

/* A SIGCONT came for t, in a group-stop: if its tracer let it go with
 * PTRACE_LISTEN, it traps again for its tracer now. */
void ptemu_continued(struct task *t);

/* At the top of syscall_entry(): whether cur, traced with PTRACE_SYSCALL,
 * stops for its tracer at this call's entry (then the call waits, not
 * begun, until its tracer lets it go: it begins when scheduled). */
int ptemu_entry_stop(void);

/* At the end of syscall_exit() (call nr, result ret; tid, the id the
 * call began under): cur stops for its tracer at the events of the call
 * (PTRACE_EVENT_EXEC, _FORK, _VFORK, _CLONE, _VFORK_DONE), at its exit
 * (PTRACE_SYSCALL), or after an execve (the SIGTRAP a traced thread
 * gets there without PTRACE_O_TRACEEXEC), in the kernel's order. */
void ptemu_exit_stop(long nr, int64_t ret, pid_t tid);

/* cur's clone-like call made thread c (its first stop not necessarily
 * seen yet): c inherits what the kernel copies (the event message), and
 * if cur's tracer follows such calls (PTRACE_O_TRACE*, CLONE_PTRACE),
 * c is its tracee from its start, stopped for it (SIGSTOP, or
 * PTRACE_EVENT_STOP when seized). */
void ptemu_clone(struct task *c);

/* tr is gone (it ended, or an exec replaced it): each thread it traced
 * goes on untraced, with the changes tr made and the signal it stopped
 * for. Called before drop_task(tr). */
void ptemu_tracer_gone(struct task *tr);

#endif
