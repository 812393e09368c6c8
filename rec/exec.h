/* exec.h: what an execve brings into the trace: the executable, its
 * interpreter, the initial stack, and the vDSO hidden then shown again. */
#ifndef REWIND_REC_EXEC_H
#define REWIND_REC_EXEC_H

#include "rec.h"

/* After a successful execve (registers regs): the new executable and
 * interpreter, the registers, and the initial stack (with the vDSO hidden
 * from libc, so that clocks go through syscalls we can record). */
void record_exec(struct user_regs_struct *regs);

/* At the first syscall after an exec, the dynamic loader (or a static
 * libc) has read the auxiliary vector without the vDSO, so libc's clocks
 * make syscalls. A program that looks the vDSO up itself finds it again,
 * its functions made into syscalls too. The changed bytes are the call's
 * outputs, so replay makes them the same. */
void vdso_show(void);

#endif
