/* tasks.c: the table of the recorded threads, waiting for their stops,
 * and the recorder's state (rec.h). */
#include "count.h"
#include "events.h"
#include "rec.h"
#include "task.h"
#include "trapact.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct recorder R = { .tty_fd = -1, .slice_ticks = SLICE_TICKS };

struct task *cur;

void ready(struct task *t)
{
	static uint64_t n;
	t->state = T_READY;
	t->since = ++n;
	if (t->blocked) {
		/* Woken: placed at most WOKE_CREDIT behind the threads of
		 * its process that wait or run, as a kernel places a sleeper. */
		t->woke = 1;
		uint64_t least = UINT64_MAX;
		for (int i = 0; i < R.ntasks; i++) {
			struct task *o = R.tasks[i];
			if (o != t && o->tgid == t->tgid && (o->state == T_READY || o->state == T_RUN) &&
			    o->vrun < least)
				least = o->vrun;
		}
		if (least != UINT64_MAX && least > WOKE_CREDIT && t->vrun < least - WOKE_CREDIT)
			t->vrun = least - WOKE_CREDIT;
	}
	t->blocked = 0;
}

void exit_pend_now(struct task *t)
{
	uint64_t now[2];
	if (!t->at_exit)
		return;
	pt_pending(&t->p, now);
	t->exit_pend[0] |= now[0];
	t->exit_pend[1] |= now[1];
}

struct task *task_nth(int i)
{
	return i < R.ntasks ? R.tasks[i] : NULL;
}

struct task *find_task(pid_t tid)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->p.pid == tid)
			return R.tasks[i];
	return NULL;
}

struct task *add_task(pid_t tid, pid_t tgid)
{
	struct task *t = calloc(1, sizeof *t);
	if (!t)
		die(EXIT_TRACE, "out of memory");
	t->p.pid = tid;
	t->p.memfd = -1;
	t->tgid = tgid;
	t->state = T_NEW;
	t->fresh = 1;
	R.tasks = xrealloc(R.tasks, (R.ntasks + 1) * sizeof *R.tasks);
	R.tasks[R.ntasks++] = t;
	return t;
}

void drop_task(struct task *t)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->parent == t)
			R.tasks[i]->parent = NULL;
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i] == t) {
			memmove(&R.tasks[i], &R.tasks[i + 1], (R.ntasks - i - 1) * sizeof t);
			R.ntasks--;
			break;
		}
	if (R.run_tid == t->p.pid)
		R.run_tid = 0;
	if (t->p.memfd >= 0)
		close(t->p.memfd);
	free(t->stage.buf);
	free(t);
}

/* Whether a SIGCONT came for a task in a group-stop (it is pending, since
 * a tracee's signals wait for the tracer): such tasks may run again,
 * and take it. ptrace reports no such event; this looks at every tick. */
void (*tasks_continued)(struct task *t);

static int continued(void)
{
	int any = 0;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		uint64_t pend = 0, shared = 0, mask = 1ull << (SIGCONT - 1);
		if (t->state != T_STOPPED)
			continue;
		if (pt_status_hex(t->p.pid, "SigPnd:", &pend) < 0 ||
		    pt_status_hex(t->p.pid, "ShdPnd:", &shared) < 0 || ((pend | shared) & mask)) {
			ready(t);
			if (tasks_continued)
				tasks_continued(t);
			any = 1;
		}
	}
	return any;
}

/* What t waits for when only rec could end the wait, or NULL when the
 * kernel or the world outside may end it (a call in the kernel, a
 * group-stop that a SIGCONT from outside ends, a thread that may run, a
 * thread sent SIGKILL, whose end comes when the kernel gets to it: a
 * tracee's, under load, often more than a tick after its tracer's
 * PTRACE_KILL or kill). */
static const char *stuck_on(const struct task *t, char *buf, size_t len)
{
	/* One its tracer holds stopped may still be inside a call it was
	 * blocked in when its tracer attached (ptemu.c lets it stay there,
	 * as if the attach's SIGSTOP had stopped it): when the call ends it
	 * stays stopped, and its tracer sees nothing either way. */
	int stopped = t->pstop && t->tracer && t->state != T_NEW && !(t->plisten && t->pgroup);
	if ((!t->pwait && !stopped) || pt_dying(t->p.pid))
		return NULL;
	if (t->pwait)
		snprintf(buf, len, "%d waits in wait4 for a tracee's stop", t->p.pid);
	else
		snprintf(buf, len, "%d is stopped for its tracer %d", t->p.pid, t->tracer->p.pid);
	return buf;
}

/* Called when no stop came for a tick: if every thread waits for what
 * only rec could end, nothing will ever come, and rec says so and stops
 * instead of waiting for ever (REWIND_NO_HANG_CHECK=1: it waits). */
static void hang_check(void)
{
	int off = env_flag("REWIND_NO_HANG_CHECK");
	char msg[1024], one[128];
	size_t n = 0;
	if (off || !R.ntasks)
		return;
	msg[0] = 0;
	for (int i = 0; i < R.ntasks; i++) {
		const char *why = stuck_on(R.tasks[i], one, sizeof one);
		if (!why)
			return;
		if (n < sizeof msg)
			n += snprintf(msg + n, sizeof msg - n, "%s%s", i ? "; " : "", why);
	}
	stop_recording(EXIT_TRACE, "every thread of the program waits for what only rewind could "
		       "end (%s); the trace %s ends here (REWIND_NO_HANG_CHECK=1 waits instead)", msg,
		       R.dir);
}

/* From any task, wait_any returns 0 too when one in a group-stop may run
 * again. It flushes and takes SIGTERM between. */
pid_t wait_any(pid_t tid, int *st, int nohang)
{
	for (;;) {
		if (R.term_sig)
			stop_recording(128 + R.term_sig, "killed by signal %d; the trace %s ends early",
				       R.term_sig, R.dir);
		if (R.flush_due) {
			R.flush_due = 0;
			flush_or_die();
		}
		if (tid == -1 && continued())
			return 0;
		pid_t pid = waitpid(tid, st, __WALL | (nohang ? WNOHANG : 0));
		if (pid > 0) {
			pt_regs_forget(pid);	/* a new stop: registers read anew */
			struct task *t = find_task(pid);
			if (t && t->state == T_RUN) {	/* its run so far (a stop
							   it runs on from too) */
				uint64_t now = clock_ns(CLOCK_MONOTONIC);
				t->vrun += now - t->run_t0;
				t->run_t0 = now;
			}
		}
		if (pid >= 0)
			return pid;
		if (errno == ECHILD && tid != -1 && nohang)
			return 0;	/* its execve gave it the leader's id */
		if (errno != EINTR)
			die(EXIT_TRACE, "wait: %s", strerror(errno));
		if (tid == -1 && !nohang)
			hang_check();
	}
}

void handle_other(int st)
{
	R.on_stop(st);
}

uint64_t rnd(void)
{
	R.rng ^= R.rng << 13;
	R.rng ^= R.rng >> 7;
	R.rng ^= R.rng << 17;
	return R.rng;
}

/* The thread clone/fork made starts with a SIGSTOP; once it and its
 * parent's event are both seen, it may run. */
void new_task(pid_t tid, struct task *parent, int thread)
{
	struct task *t = find_task(tid);
	if (!t)
		t = add_task(tid, thread ? parent->tgid : tid);
	t->tgid = thread ? parent->tgid : tid;
	if (!thread) {
		tsc_fork(parent->tgid, tid);
		count_fork(parent->tgid, tid);
	}
	t->own = parent->own;
	trapact_clone(t, parent, clone_flags(parent));
	t->parent = thread ? parent->parent : parent;
	t->woke = thread;
	t->vrun = thread ? parent->vrun : 0;
	if (clone_flags(parent) & CLONE_VM)
		pt_share_mem(&t->p, &parent->p);
	else
		pt_reopen_mem(&t->p);
	if (!t->fresh)
		ready(t);
}

/* The clone flags of the call t is in. */
uint64_t clone_flags(struct task *t)
{
	uint64_t f = 0;
	if (t->nr == SYS_clone)
		return t->a[0];
	if (t->nr == SYS_vfork)
		return CLONE_VM | CLONE_VFORK | SIGCHLD;
	if (t->nr == SYS_clone3 && pt_read(&t->p, t->a[0], &f, 8) == 8)
		return f;
	return SIGCHLD;
}

/* The id thread tid (as rec sees it) sees for itself: the last one on
 * the NSpid line of its status, or ret where that cannot be read. */
uint32_t self_id(uint32_t tid, int64_t ret)
{
	char line[256], *end;
	uint32_t id = ret;
	char *s = pt_status(tid, "NSpid:", line, sizeof line);
	for (long v; s && ((v = strtol(s, &end, 10)), end != s); s = end)
		id = v;
	return id;
}

/* Whether pid is a process (or thread) being recorded. */
int in_tree(uint64_t pid)
{
	for (int i = 0; i < R.ntasks; i++)
		if ((uint64_t)R.tasks[i]->p.pid == pid || (uint64_t)R.tasks[i]->tgid == pid)
			return 1;
	return 0;
}

/* Whether a thread other than the running one waits to run. */
int sig_ours(const siginfo_t *si)
{
	return si->si_code == SI_TKILL &&
	       (si->si_pid == getpid() ||
		(si->si_pid == 0 && self_id(cur->p.pid, cur->p.pid) != (uint32_t)cur->p.pid));
}

int task_runnable(const struct task *t)
{
	if (t->state != T_READY || t->pstop)
		return 0;
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->tgid == t->tgid && R.tasks[i]->state == T_KERNEL &&
		    R.tasks[i]->nr == SYS_exit_group)
			return 0;
	return 1;
}

int others_ready(void)
{
	for (int i = 0; i < R.ntasks; i++)
		if (task_runnable(R.tasks[i]))
			return 1;
	return 0;
}
