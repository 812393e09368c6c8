/* vdso.h: the vDSO's functions made into system calls, so that a program
 * that calls them itself is recorded and replayed like one that calls
 * libc (rec, and checkpoints restored into a fresh process). */
#ifndef REWIND_VDSO_H
#define REWIND_VDSO_H

#include <stddef.h>
#include <stdint.h>
#include "pt.h"

/* Make each clock, time, getcpu and clock_getres function of the vDSO
 * mapped at base (len bytes) in p into a stub that makes the system call
 * (getrandom into one that returns ENOSYS, so that its callers make the
 * call). fn, when not NULL, gets each stretch written. Returns the number
 * of functions changed, or -1 when the image cannot be read. */
int vdso_patch(struct pt_proc *p, uint64_t base, size_t len,
	       void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx);

#endif
