/* bufdrain.h: rec's side of syscall buffering: preloading librewind-buf.so,
 * keeping its header (mode, fd sets, flags) up to date, and moving the
 * calls it logged into the trace at the thread's next stop. */
#ifndef REWIND_BUFDRAIN_H
#define REWIND_BUFDRAIN_H

#include <stddef.h>
#include <stdio.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "pt.h"
#include "trace.h"

/* Decide whether this recording buffers (not with REWIND_NO_BUFFER=1, nor
 * when the library is not found next to rec or under PREFIX/lib/rewind)
 * and return the environment for the program: envp, or a copy with the
 * library first in LD_PRELOAD. Sets pt_untraced_ip when buffering. */
char **buf_setup(char **envp);

/* rec --probe's line on syscall buffering. */
void buf_probe_print(FILE *f);

/* Whether buf_setup() turned buffering on. */
extern int buf_on;

/* The thread p, which was running the program's code, stopped: move the
 * calls its process logged into w, as TRF_BUFFERED TR_SYSCALL records of
 * thread p numbered from *event on (advanced past them; before the first
 * of them, before() is called), and set the
 * header's traced_next to held (a held signal waits for a traced call).
 * Does nothing while the library is in the middle of a call
 * (buf_busy()). */
void buf_drain(struct pt_proc *p, int held, struct trace_writer *w, uint64_t *event,
	       void (*before)(void));

/* Whether the library of p's process is between an untraced call and the
 * end of its entry, or thread p is inside a call into the library (below
 * its header's lib_sp, bufabi.h): a preemption there could not be
 * replayed, since the library's way through the call differs between
 * rec and replay. */
int buf_busy(struct pt_proc *p);

/* Exchange *sp with the lib_sp of p's process's header (bufabi.h).
 * Returns -1 when the process has no library (nothing exchanged). */
int buf_swap_lib_sp(struct pt_proc *p, uint64_t *sp);

/* The lib_sp in the header of p's process (bufabi.h); 0 when none. */
uint64_t buf_lib_sp(struct pt_proc *p);

/* Ask that p's next buffered call be traced (a signal is held for it). */
void buf_want_traced(struct pt_proc *p);

/* The same for thread tid, from a signal handler. */
void buf_poke(pid_t tid);

/* After traced call nr of thread p (of process key) returned ret:
 * register a new buffer (the library's mprotect of its page, where libc's
 * stubs are redirected too, bufredir.h), keep the fd sets in step with
 * the descriptors, and turn buffering off where it cannot be exact. */
void buf_after(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret);

/* Whether signal si of thread p, stopped at rip, is the trap of
 * REWIND_BUF_PREEMPT (tests: a preemption forced at an instruction of
 * librewind-buf.so, its offset as objdump shows it, the first time the
 * first thread whose buffering starts runs it). The breakpoint is then
 * gone; the caller preempts p there as an asynchronous signal would, and
 * the trap is not the program's. */
int buf_preempt_hit(struct pt_proc *p, const siginfo_t *si, uint64_t rip);

/* Look again at every descriptor of process p (a file it may have open
 * became emulated): writes to that file go traced from now on, each
 * other file's as before. */
void buf_rescan(struct pt_proc *p);

/* Turn buffering off in p's process, and in every process whose library
 * starts from now on: every call goes traced. For a program that asked
 * for fanotify permission events, which can hold any open or read (a
 * call that waits untraced would hold the whole recording). */
void buf_stop(struct pt_proc *p);

#endif
