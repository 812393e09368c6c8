/* schedule.h: which thread runs user code, for how long (timeslices
 * counted in ticks of the interval timer), and when it gives way. */
#ifndef REWIND_REC_SCHEDULE_H
#define REWIND_REC_SCHEDULE_H

#include "rec.h"

/* Every tick: flush once a second, and stop a thread that has run its
 * timeslice without a syscall while another waits. */
void on_alarm(int sig);

/* Let a ready thread run user code: the one ready longest, or with
 * --chaos one picked at random with a random timeslice. */
void schedule(void);

/* Before a thread is picked to run: the stop (status *st) of a thread
 * whose blocking call just ended, if one comes within a few yields of
 * rec's CPU, else 0. A thread of a threaded process woken by the last
 * one's call (a join, a futex) needs that CPU, which its process is
 * pinned to, to leave the kernel; picked first, another thread would
 * keep it for the kernel's timeslice (about 3 ms) before rec saw the
 * wake-up. */
pid_t woken_stop(int *st);

/* cur just entered a syscall: most end at once, and then cur goes on
 * with its timeslice; one that blocks lets another thread run. So does
 * sched_yield, and the end of the timeslice. A call that sends data to
 * stdout or stderr lets none run until it ends, however long it blocks
 * (a full pipe, a stopped terminal): replay prints the data at the
 * call's end, so the data must reach the file in the order of the ends. */
void await_quick_return(void);

/* When the running thread is stopped (want_ticks): at the end of its
 * timeslice if another waits, after HELD_TICKS if it holds a signal it
 * does not block, else never. */
void set_want(void);

#endif
