/* vsyscall.h: calls through the legacy vsyscall page (gettimeofday, time
 * and getcpu at 0xffffffffff600000), which old static programs make. */
#ifndef REWIND_REC_VSYSCALL_H
#define REWIND_REC_VSYSCALL_H

#include <stddef.h>
#include <stdint.h>

#include "pt.h"

/* Whether an entry stop at rip is a call through the vsyscall page. */
int vsyscall_at(uint64_t rip);

/* Whether call nr is one the page has (one vsyscall_make makes). */
int vsyscall_has(long nr);

/* Make call nr (arguments a), one the page has, for thread p, stopped at
 * its entry: the kernel emulates those and returns to the caller with no
 * syscall-exit stop, so rec makes the call itself (the caller runs on
 * rec's CPU, so getcpu answers alike) and writes its outputs, each also
 * given to out(ctx, addr, bytes, len), for the caller to skip it.
 * Returns the result. */
int64_t vsyscall_make(struct pt_proc *p, long nr, const uint64_t a[6],
		      void (*out)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx);

#endif
