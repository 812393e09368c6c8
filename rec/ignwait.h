/* ignwait.h: signals the program never sees (those it ignores, and
 * rec's own SIGSTOP) kept from interrupting its waits. The kernel
 * discards a signal whose action is SIG_IGN when it is sent, but queues
 * it for a traced thread, for the tracer to see: there
 * it wakes a blocked call like any other. Most calls then restart, as no
 * handler ran; a few fail with EINTR whatever the action (epoll_wait,
 * sigtimedwait, semop), which the program would never have seen. rec
 * blocks the ignored signals across such a call; one that came is
 * delivered, and discarded, at the call's end. */
#ifndef REWIND_REC_IGNWAIT_H
#define REWIND_REC_IGNWAIT_H

#include <stdint.h>

/* cur is about to make call nr (arguments a), stopped at its entry. */
void ignwait_entry(long nr, const uint64_t a[6]);

/* cur's call ended (its exit stop): its own mask back. */
void ignwait_exit(void);

/* cur's call nr (arguments a) ended with ret at its exit stop: whether
 * it is such a call, failed with EINTR because of rec's own SIGSTOP (a
 * timeslice's end that raced the call's entry), with no other signal of
 * the program pending unblocked. Natively nothing stopped it; rec makes
 * the result -ERESTARTNOHAND, which the kernel restarts as the SIGSTOP
 * goes by undelivered (and replay restarts where no signal comes). */
int ignwait_own_stop(long nr, const uint64_t a[6], int64_t ret);

#endif
