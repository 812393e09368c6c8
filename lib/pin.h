/* pin.h: the tracer's thread and its tracees on one CPU (rec and the
 * replay engine), which the program does not see. */
#ifndef REWIND_PIN_H
#define REWIND_PIN_H

#include "pt.h"

#include <stdint.h>
#include <sys/types.h>

/* Choose the CPU the calling thread runs on, and note the CPUs it may
 * run on (what the program is shown). Only one thread of the program
 * runs at a time, and each stop hands the CPU between it and the tracer:
 * on one CPU that is a switch, across two a wake-up of the other CPU
 * (several times dearer on a VM). Off with REWIND_NO_PIN=1, or with one
 * CPU allowed. prefer (-1: none) is taken when allowed: replay runs
 * where rec ran, if it can. Call before pin_child() and pin_self(). */
void pin_choose(int prefer);
/* The CPU every thread of the program runs on (the pin's, or the one
 * CPU allowed), or -1 when they may run on several. A program that sets
 * an affinity of its own leaves it. */
int pin_cpu(void);
/* The calling thread runs on the chosen CPU: a tracer's (threads it
 * makes after inherit the pin: make the ones that should run anywhere
 * before), or a new tracee's before its execve (its threads and
 * children inherit it). */
void pin_self(void);
/* The calling thread (a helper made after the pin) runs on any of the
 * CPUs allowed before it. */
void pin_anywhere(void);
/* Thread p is about to make call nr (arguments a): a sched_setattr to
 * SCHED_DEADLINE, which the kernel lets only a thread that may run on
 * every CPU of its domain make (EPERM), is made by the thread it names
 * with the CPUs of before the pin, which it keeps (as a deadline thread
 * must): off the pin, as after an affinity of the program's own. */
void pin_before(struct pt_proc *p, long nr, const uint64_t a[6]);
/* Thread p's call nr (arguments a) returned ret, its outputs not saved
 * yet: a sched_getaffinity that shows the pin's CPU alone shows the CPUs
 * of before the pin instead, as the program would have seen them without
 * rewind, until the program sets an affinity of its own (sched_setaffinity):
 * then what it set may be that CPU alone, and it sees the truth. */
void pin_after(struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret);

#endif
