/* emu.h: rec's side of the files replay emulates (files mapped shared,
 * or past their end): which files they are,
 * and what the program's calls, or a process outside the recording, did
 * to them (IT_EMUFILE, IT_FPATCH in rewind-trace(5)). */
#ifndef REWIND_REC_EMU_H
#define REWIND_REC_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "pt.h"
#include "trace.h"

/* Whether replay must map the file of mmap a (the file st, open in
 * process p as a[4]; writable: for writing) from its emulated copy: a
 * shared mapping, one through a writable descriptor, one past the file's
 * end (but the dynamic loader's), or any of a file emulated already. If so, the file is emulated from now
 * on. */
int emu_map(struct pt_proc *p, const uint64_t a[6], const struct stat *st, int writable);

/* After call nr (arguments a, result ret) of process p: add to the
 * record being written in w an IT_FPATCH for each emulated file the call
 * changed. Returns 0, or -1 with why set when it cannot be recorded. */
int emu_patch(struct trace_writer *w, struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret,
	      char *why, size_t len);

/* Whether call nr can change a file (a write, a truncate...). */
int emu_changes(long nr);

/* Look for changes to emulated files that no recorded call made (the
 * kernel reports write(2)-like changes by any process). Unless busy (a
 * recorded thread is inside a call that may change a file), add an
 * IT_FPATCH with the whole file for each such file to the record in w,
 * so that replay shows the change from here, and name the first in why
 * (returns 1; a file's first change only). Returns 0 when there was
 * none, -1 (why set) when a changed file cannot be read. */
int emu_outside(struct trace_writer *w, int busy, char *why, size_t len);

/* Forget the emulated files that none of the processes pids (n of them)
 * maps any more, closing rec's descriptor of each: before an umount,
 * which it would make fail (EBUSY). One mapped again later is emulated
 * again, from its bytes then (replay loads its copy again, no process
 * mapping it). */
void emu_forget_unmapped(const pid_t *pids, int n);

/* Whether the file dev, ino is emulated (mapped so that its changes are
 * recorded as IT_FPATCH): writes to it must be traced calls. */
int emu_is(dev_t dev, ino_t ino);

#endif
