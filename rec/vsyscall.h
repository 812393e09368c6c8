/* vsyscall.h: calls through the legacy vsyscall page (gettimeofday, time
 * and getcpu at 0xffffffffff600000), which old static programs make. */
#ifndef REWIND_REC_VSYSCALL_H
#define REWIND_REC_VSYSCALL_H

#include <stdint.h>

#include "pt.h"

/* Whether an entry stop at rip is a call through the vsyscall page. */
int vsyscall_at(uint64_t rip);

/* An output of such a call: len bytes written at addr. */
struct vsys_out {
	uint64_t addr;
	size_t len;
	uint8_t b[16];
};

/* Make call nr (arguments a) of the vsyscall page for thread p, stopped
 * at its entry: the kernel emulates those and returns to the caller with
 * no syscall-exit stop, so rec makes the call itself (the caller runs on
 * rec's CPU, so getcpu answers alike) and writes its outputs, out[0] and
 * out[1] (len 0: none), for the caller to skip it. Returns the result,
 * or 1 for a call the page has not (the kernel stops none such here). */
int64_t vsyscall_make(struct pt_proc *p, long nr, const uint64_t a[6], struct vsys_out out[2]);

#endif
