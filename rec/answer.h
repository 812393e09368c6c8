/* answer.h: the calls rec answers itself at their entry, with the error a
 * kernel without the feature gives, instead of letting them run. */
#ifndef REWIND_REC_ANSWER_H
#define REWIND_REC_ANSWER_H

#include <stdint.h>
#include <sys/types.h>

/* The negative errno that call nr (arguments a) of thread pid, of process
 * tgid (as rec sees them), gets without running, or 0 to let it run:
 * ENOSYS for a userfaultfd made through /dev/userfaultfd (as for the
 * userfaultfd syscall: the kernel would write the program's memory
 * behind rec's back), EINVAL for process_madvise on the caller's own
 * memory with advice that changes it (as before Linux 6.13: replay does
 * not run the call). */
long answer_entry(pid_t pid, pid_t tgid, long nr, const uint64_t a[6]);

#endif
