/* ptpatch.h: a tracer's writes into its tracee's code (its breakpoints),
 * made in rec and never in replay, which sets the tracee's state at each
 * stop they make; rec checks that a tracee let run finds nothing else
 * changed in its code. */
#ifndef REWIND_REC_PTPATCH_H
#define REWIND_REC_PTPATCH_H

#include <stdint.h>
#include "task.h"

/* Where [addr, addr + len) is in t's process: 1 all in mappings without
 * write permission (code), 0 all in writable ones, -1 otherwise. */
int ptpatch_readonly(const struct task *t, uint64_t addr, uint64_t len);

/* Keeps the bytes of t's code at [addr, addr + len), before its tracer
 * writes there (the first time each). */
void ptpatch_note(const struct task *t, uint64_t addr, uint64_t len);

/* At the entry of cur's call nr (arguments a): a write or pwrite64
 * through /proc/N/mem into the code of a thread cur's process traces
 * has its bytes kept first (ptpatch_note). */
void ptpatch_entry(long nr, const uint64_t a[6]);

/* t is let run (not a single step): every byte of its process's code
 * that its tracer changed is as it was or an int3 (a breakpoint, which
 * stops it before it runs); anything else would run in rec and not in
 * replay, and is refused by name. */
void ptpatch_check(const struct task *t);

/* Process child was made by a fork of parent: what parent's code had
 * changed, child's has too. */
void ptpatch_fork(pid_t parent, pid_t child);

/* The code of process tgid was replaced (execve) or is gone. */
void ptpatch_forget(pid_t tgid);

#endif
