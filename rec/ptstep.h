/* ptstep.h: PTRACE_SINGLESTEP of a tracee in the recorded tree, made by
 * rec on the real thread at once; replay sets the state it reached. */
#ifndef REWIND_REC_PTSTEP_H
#define REWIND_REC_PTSTEP_H

#include <signal.h>
#include <stdint.h>
#include "task.h"

/* Refuses, by name, a PTRACE_SINGLESTEP of t that rec cannot make: t
 * is not stopped between calls. */
void ptstep_check(const struct task *t);

/* cur (a tracer) single-steps t, stopped for it between calls, with
 * signal sig (0, or the one it stopped for, recorded already): t runs
 * one instruction (or enters sig's handler) now. Returns how the step
 * ended, for the caller (ptemu.c) to make of it:
 *   PTSTEP_STOP  stopped with the step's SIGTRAP or the signal the
 *                instruction raised (*si): a signal stop for its tracer;
 *   PTSTEP_CALL  stopped at a system call's entry (wait status *st):
 *                the call is made and recorded as any other, and the
 *                step's SIGTRAP stops t at its end (ptemu_exit_stop);
 *   PTSTEP_GONE  killed meanwhile (its end was seen). */
enum { PTSTEP_GONE, PTSTEP_CALL, PTSTEP_STOP };
int ptstep(struct task *t, int sig, int *st, siginfo_t *si);

/* Whether si is a fault's signal (raised by an instruction: a
 * breakpoint's or a step's SIGTRAP, a SIGSEGV...), not one sent. */
int ptstep_fault(const siginfo_t *si);

#endif
