/* bufredir.h: libc's syscall stubs sent to librewind-buf.so's wrappers
 * (bufabi.h's redirect table). */
#ifndef REWIND_BUFREDIR_H
#define REWIND_BUFREDIR_H

#include "pt.h"

#include <stdint.h>

/* At the call that readies the buffer of p, of process key (mprotect of
 * BUF_ADDR's page): make each stub the table names, that is a stub of
 * its call and whose wrapper is one, jump to the wrapper. The program's
 * own bytes decide (a debugger's int3s there are seen through), so the
 * same memory gives the same jumps: rec and the replay engine both call
 * it there. Returns how many it made. */
int buf_redirect(struct pt_proc *p, uint32_t key);

#endif
