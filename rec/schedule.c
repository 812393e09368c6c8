/* schedule.c: which thread runs user code, for how long (timeslices
 * counted in ticks of the interval timer), and when it gives way. */
#include "advance.h"
#include "bufdrain.h"
#include "calls.h"
#include "count.h"
#include "rec.h"
#include "schedule.h"
#include "sig.h"
#include "stop.h"
#include "task.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Ticks without a syscall after which a thread that holds a signal it
 * does not block is stopped to take it (R.want_ticks). */
#define HELD_TICKS 20
/* Ticks after SIGTERM after which rec leaves at once, the trace ending
 * at its last flush, the program killed (PTRACE_O_EXITKILL). */
#define TERM_TICKS (1000000 / TICK_US)
static char term_msg[] = "rec: killed by signal NN; the trace ends early\n";

/* The ticks since the last SIGALRM: one, or more when rec itself did not
 * run for a while (a loaded machine), as SIGALRMs that come while one is
 * pending merge into it. Counting handler calls instead, a thread could
 * compute its whole work unpreempted while rec waited for a CPU, another
 * thread waiting all that time (bigspin under load: no preemption). */
static int ticks_passed(void)
{
	static uint64_t t0;
	static long long seen;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	if (!t0)
		t0 = now;
	long long total = (long long)((now - t0) / (TICK_US * 1000ull));
	long long n = total - seen;
	if (n < 1)
		n = 1;		/* early: counted now, the next one waits */
	if (n > 1000000 / TICK_US)
		n = 1000000 / TICK_US;
	seen += n;
	if (seen < total)
		seen = total;
	return (int)n;
}

/* Every tick: flush once a second, and stop a thread that has run its
 * timeslice without a syscall while another waits. */
void on_alarm(int sig)
{
	(void)sig;
	int n = ticks_passed();
	if (R.term_passed && !R.term_sig && (R.term_grace += n) >= TERM_GRACE_TICKS)
		R.term_sig = R.term_passed;
	if (R.term_sig && (R.term_ticks += n) >= TERM_TICKS) {
		term_msg[22] = '0' + R.term_sig / 10 % 10;
		term_msg[23] = '0' + R.term_sig % 10;
		(void)!write(2, term_msg, sizeof term_msg - 1);
		_exit(128 + R.term_sig);
	}
	if ((R.ticks_to_flush += n) >= 1000000 / TICK_US) {
		R.ticks_to_flush = 0;
		R.flush_due = 1;
	}
	if (!R.run_tid)
		return;
	R.run_ticks += n;
	if (R.want_ticks && R.preempting != R.run_tid && (R.seg_ticks += n) >= R.want_ticks) {
		R.preempting = R.run_tid;
		syscall(SYS_tkill, R.run_tid, SIGSTOP);
	} else if (R.want_ticks && R.seg_ticks + 1 >= R.want_ticks) {
		buf_poke(R.run_tid);	/* a traced call is a cheaper place to stop */
	}
}

/* Whether a thread of r's process waits to run that woke (its call
 * blocked, and ended) or is new, and has run its own code WOKE_GRAN less
 * than r. Natively it would run at once, on another CPU or by the
 * kernel's wakeup preemption; here r gives way at its next syscall, and
 * a counted r at its next tick. A woken thread of another process only
 * when r is counted (its preemption a point): for an uncounted r (make's
 * compiler, a pipe's writer) it waits for the timeslice as before, since
 * such a preemption takes r's memory. (rr's checkpoint_dying_threads: a
 * child woken while its counted parent spins 15 ms and exits was killed
 * unrun at the parent's end 1 run in 3.) */
static int woke_waits(const struct task *r)
{
	uint64_t vrun = r->vrun;
	int now_read = r->state != T_RUN;
	for (int i = 0; i < R.ntasks; i++) {
		const struct task *c = R.tasks[i];
		if (c == r || !c->woke || !task_runnable(c) ||
		    (c->tgid != r->tgid && !count_counted(r->tgid)))
			continue;
		if (!now_read) {	/* the clock, once, and only with a woken thread waiting */
			vrun += clock_ns(CLOCK_MONOTONIC) - r->run_t0;
			now_read = 1;
		}
		if (c->vrun + WOKE_GRAN <= vrun)
			return 1;
	}
	return 0;
}

/* t is about to run its own code: the header's lib_sp (one per process)
 * becomes t's own, and the thread that held it keeps its value. */
static void lib_sp_switch(struct task *t)
{
	if (t->lib_holds)
		return;
	uint64_t sp = t->lib_sp;
	if (buf_swap_lib_sp(&t->p, &sp) < 0)
		return;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *o = R.tasks[i];
		if (o != t && o->tgid == t->tgid && o->lib_holds) {
			o->lib_holds = 0;
			o->lib_sp = sp;
		}
	}
	t->lib_holds = 1;
}

/* Ready thread t runs its own code now, the one thread that does; a
 * thread held at its clone's event (R.clone_gives_way) goes on now. */
static void run_user(struct task *t)
{
	t->state = T_RUN;
	t->woke = 0;
	t->run_t0 = clock_ns(CLOCK_MONOTONIC);
	R.run_tid = t->p.pid;
	int sig = t->sig;
	t->sig = 0;
	if (!t->pcall)
		check_moved(t);	/* another thread moved it while it waited */
	/* Signals that came while it waited its turn at a call's exit:
	 * held instead, a thread that left its loop on a flag the sender
	 * set next would never take them (rr's async_signal_syscalls2). */
	exit_pend_now(t);
	advance_before_switch(t);
	count_switch(&t->p, t->tgid, t->p.pid);
	lib_sp_switch(t);
	advance_chaos(t);
	if (woke_waits(t))
		buf_poke(t->p.pid);	/* before it runs: see set_want() */
	sig_resume(t, sig);
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->clone_held) {
			R.tasks[i]->clone_held = 0;
			pt_resume(&R.tasks[i]->p, RESUME_SYSCALL, 0);
		}
}

pid_t woken_stop(int *st)
{
	int any = 0;
	for (int i = 0; i < R.ntasks && !any; i++) {
		struct task *t = R.tasks[i];
		if (t->state != T_KERNEL || !t->blocked)
			continue;
		for (int k = 0; k < R.ntasks && !any; k++)
			any = R.tasks[k] != t && R.tasks[k]->tgid == t->tgid;
	}
	for (int i = 0; any && i < 8; i++) {
		pid_t pid = wait_any(-1, st, 1);
		if (pid)
			return pid;
		sched_yield();
	}
	return 0;
}

/* Let a ready thread run user code: the one ready longest, or with
 * --chaos one picked at random with a random timeslice. */
void schedule(void)
{
	int n = 0;
	for (int i = 0; i < R.ntasks; i++)
		n += task_runnable(R.tasks[i]);
	if (!n)
		return;
	/* The one ready longest never is the one that gave way, but a
	 * random pick may be: then it would not have given way at all,
	 * and the switches that bring out races would come half as often. */
	pid_t skip = R.chaos && n > 1 && find_task(R.gave_way) &&
		     task_runnable(find_task(R.gave_way)) ? R.gave_way : 0;
	R.gave_way = 0;
	int pick = R.chaos ? (int)(rnd() % (n - !!skip)) : -1;
	struct task *t = NULL;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *c = R.tasks[i];
		if (task_runnable(c) && c->p.pid != skip &&
		    (pick < 0 ? !t || c->since < t->since : pick-- == 0))
			t = c;
	}
	if (t->pcall == P_GO) {
		/* Let go by its tracer at a call's entry: the call begins. */
		cur = t;
		syscall_entry();
		schedule();
		return;
	}
	R.run_ticks = R.seg_ticks = 0;
	if (R.chaos)
		R.slice_ticks = 1 + rnd() % 8;
	run_user(t);
}

/* Whether syscall nr with arguments a is a futex op that writes a word
 * other threads change in user memory (FUTEX_WAKE_OP's second word, a PI
 * lock's word), and ends without blocking: rec reads the word at the
 * end, so no other thread may run before it. */
static int futex_word_write(long nr, const uint64_t *a)
{
	int op = (int)(a[1] & 127);
	return nr == SYS_futex && (op == FUTEX_WAKE_OP || op == FUTEX_UNLOCK_PI ||
				   op == FUTEX_TRYLOCK_PI || op == FUTEX_CMP_REQUEUE_PI);
}

/* Whether call nr (arguments a) places or removes mappings: another
 * thread's mmap may then find its range taken or free by timing, and
 * replay performs a call at its end's record; so none runs before it
 * ends, which it does without waiting on another thread of the program
 * (not an mmap that populates, which may read a FUSE file its server
 * thread serves). */
static int maps_write(long nr, const uint64_t *a)
{
	return nr == SYS_munmap || nr == SYS_mremap || nr == SYS_brk ||
	       (nr == SYS_mmap && !(a[3] & MAP_POPULATE));
}

/* t is blocked in a syscall whose entry is not yet written. A
 * FUTEX_LOCK_PI (or LOCK_PI2) that waits first sets FUTEX_WAITERS in the
 * lock word, which makes the owner's unlock call the kernel instead of
 * releasing the word itself: wait until the kernel made that mark and
 * the thread sleeps (or the call ended) before another thread runs, and
 * write the word as an IT_MEM item of the entry, which replay writes
 * there. t may be gone after. */
static void pi_waiters_mark(struct task *t)
{
	pid_t tid = t->p.pid;
	if (!pi_acquire(t->nr, t->a) || (t->a[1] & 127) == FUTEX_WAIT_REQUEUE_PI)
		return;
	uint32_t v;
	/* The kernel either marks the word and sleeps, or ends the call
	 * (took the lock, a fault, a timeout): each comes soon. The mark
	 * may be an earlier waiter's, so only its sleep (queued where the
	 * owner's unlock finds it) says the word is final. */
	for (;;) {
		char buf[512];
		const char *state = pt_stat(tid, buf, sizeof buf);
		int asleep = state && *state == 'S';
		if (pt_read(&t->p, t->a[0], &v, 4) != 4)
			return;
		if (asleep && (v & FUTEX_WAITERS))
			break;
		int st;
		if (wait_any(tid, &st, 1) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
		return;
	}
	if (!find_task(tid) || t->state != T_KERNEL || !t->open)
		return;
	tw_item(&t->stage, IT_MEM, 0, &t->a[0], 8, &v, 4);
}

/* Whether t's call makes the first thread of a process counted lazily:
 * its end patches the process (count_call_end). The new thread waits for
 * that end, or its first stretch would run uncounted, a preemption in it
 * a state that gdbstub may not find again (t8070 under load), where it is
 * a point otherwise. Not with REWIND_CLONE_GIVES_WAY=1, whose tests let
 * it run first on purpose; a clone never waits long. */
static int counts_from(struct task *t)
{
	return (t->nr == SYS_clone || t->nr == SYS_clone3) && !R.clone_gives_way && count_on() &&
	       !count_counted(t->tgid) && (clone_flags(t) & CLONE_THREAD) && !(clone_flags(t) & CLONE_VFORK);
}

/* t's sched_yield ended with no other thread ready: a thread woken just
 * before (by a futex wake) may have ended its call without rec seeing it
 * yet. Its end is taken first, so that the yield gives way to it as the
 * kernel's would. */
static void take_woken(struct task *t)
{
	int st;
	pid_t pid, tid = t->p.pid;
	while (!others_ready() && (pid = woken_stop(&st))) {
		cur = find_task(pid);
		if (!cur)
			cur = add_task(pid, pid);	/* a new thread's first stop */
		handle(st);
		if (!find_task(tid))
			return;
	}
	cur = t;
}

/* cur just entered a syscall: most end at once, and then cur goes on
 * with its timeslice; one that blocks lets another thread run. So does
 * sched_yield, and the end of the timeslice. A call that sends data to
 * stdout or stderr lets none run until it ends, however long it blocks
 * (a full pipe, a stopped terminal): replay prints the data at the
 * call's end, so the data must reach the file in the order of the ends.
 * Nor does a sched_yield, which never blocks: on a loaded machine its
 * end can come after the tries, and then it gave way to nobody (rr's
 * sched_yield test, two threads taking turns, failed 1 run in 4). */
void await_quick_return(void)
{
	pid_t tid = cur->p.pid;
	long nr = cur->nr;
	struct task *t = cur;
	if (t->pwait)
		return;		/* until a tracee of it stops */
	/* The kernel clears an ending thread's id for a join
	 * (CLONE_CHILD_CLEARTID) as it goes: none runs before it is gone,
	 * or a join would find it cleared or not by timing. (The first
	 * thread's end is not reported while others live.) */
	int hold = t->out || (nr == SYS_exit && tid != t->tgid) || futex_word_write(nr, t->a) ||
		   maps_write(nr, t->a) || counts_from(t) || nr == SYS_sched_yield;
	int tries = R.clone_gives_way && (nr == SYS_clone || nr == SYS_clone3) ? 0 : 40;
	for (int i = 0; (hold || i < tries) && t->state == T_KERNEL; i++) {
		int st;
		/* Alone, it can only wait for the call's end. */
		if (wait_any(tid, &st, R.ntasks > 1 && !hold) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
		if (!find_task(tid))
			return;
	}
	if (t->state == T_KERNEL)
		t->blocked = 1;
	if (t->state == T_KERNEL && t->open) {
		pi_waiters_mark(t);
		if (!find_task(tid))
			return;
	}
	if (t->state != T_READY || t->pstop)
		return;
	if (nr == SYS_sched_yield && !others_ready()) {
		take_woken(t);
		if (!find_task(tid) || t->state != T_READY || t->pstop)
			return;
	}
	if (others_ready() && (nr == SYS_sched_yield || R.run_ticks >= R.slice_ticks || woke_waits(t) ||
			       (R.chaos && rnd() % 2))) {
		R.gave_way = tid;
		return;
	}
	run_user(t);
}

/* When the running thread is stopped (R.want_ticks): at the end of its
 * timeslice if another waits (at the next tick for a woken thread of
 * its process, when it is counted), after HELD_TICKS if it holds a
 * signal it does not block, else never. With a woken thread waiting, its
 * buffer is poked (again after each stop, whose drain clears that): its
 * next call is traced, where it gives way. */
void set_want(void)
{
	struct task *r = R.run_tid ? find_task(R.run_tid) : NULL;
	int woke = r && woke_waits(r);
	R.want_ticks = !others_ready() ? (r && r->nstash && !r->held_blocked ? HELD_TICKS : 0) :
		       woke && count_counted(r->tgid) ? 1 : R.slice_ticks;
	if (woke)
		buf_poke(R.run_tid);
}
