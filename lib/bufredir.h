/* bufredir.h: libc's syscall stubs sent to librewind-buf.so's wrappers
 * (bufabi.h's redirect table). */
#ifndef REWIND_BUFREDIR_H
#define REWIND_BUFREDIR_H

#include "bufabi.h"
#include "pt.h"

#include <stdint.h>
#include <sys/syscall.h>

/* Whether call nr(a), which returned ret, is the one that readies a
 * buffer: the library's mprotect of its page (rwbuf_init). */
static inline int buf_readies(long nr, const uint64_t a[6], int64_t ret)
{
	return nr == SYS_mprotect && a[0] == BUF_ADDR && a[1] == BUF_PAGE && ret == 0;
}

/* At the call that readies the buffer of p, of process key (mprotect of
 * BUF_ADDR's page): make each stub the table names, that is a stub of
 * its call and whose wrapper is one, jump to the wrapper. The program's
 * own bytes decide (a debugger's int3s there are seen through), so the
 * same memory gives the same jumps: rec and the replay engine both call
 * it there. Returns how many it made. */
int buf_redirect(struct pt_proc *p, uint32_t key);

#endif
