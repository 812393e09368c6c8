/* dirty.h: a userfaultfd of each recorded process that is preempted, in
 * write-protect async mode, so that its preemption records hold only the
 * memory written since the last one (pos_take_since). */
#ifndef REWIND_DIRTY_H
#define REWIND_DIRTY_H

#include <signal.h>
#include <sys/types.h>
#include "pt.h"

/* Give process tgid a userfaultfd if it has none and none was tried:
 * thread p, at a signal-delivery-stop in user code (a signal held for
 * it is then delivered later, not there), makes one (injected calls, through the syscall
 * instruction rec's filter lets through: lib/bufabi.h) which rec takes
 * and the process closes again, so the program never sees it. Returns
 * 1 when calls were injected: p is then at a syscall-exit-stop with its
 * registers as before (or gone, its exit left for rec's wait), and the
 * signals that came for it meanwhile are added to stash[0..*nstash)
 * (at most max), to be delivered later like any held signal; 0 when
 * nothing was done. Nothing is done when REWIND_NO_UFFD_WP is set;
 * dirty_fd() stays -1 when the kernel lacks UFFD_FEATURE_WP_ASYNC. */
int dirty_setup(struct pt_proc *p, pid_t tgid, siginfo_t *stash, int *nstash, int max);

/* The userfaultfd of process tgid, or -1. */
int dirty_fd(pid_t tgid);

/* Process tgid replaced its memory (execve) or ended: its userfaultfd
 * is closed, and a new one is made at its next preemption. */
void dirty_forget(pid_t tgid);

#endif
