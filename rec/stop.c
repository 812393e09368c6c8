/* stop.c: one stop of a thread, sent to what handles it (a syscall entry
 * or exit, a signal, an exec, a new thread, an end). */
#include "advance.h"
#include "bufdrain.h"
#include "calls.h"
#include "dirty.h"
#include "events.h"
#include "ptchld.h"
#include "ptemu.h"
#include "rec.h"
#include "records.h"
#include "robust.h"
#include "sig.h"
#include "stop.h"
#include "task.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

/* A task ended (exited or killed). */
static void task_gone(int st)
{
	ptemu_exited(st);
	ptemu_wake(cur, 1);
	if (cur->open) {
		/* Killed inside a call with nothing recorded since it began:
		 * SIGKILL (another thread's exit_group would be recorded). */
		flush_entries(cur->seq);
		cur->open = 0;
		tw_begin(&R.w, TR_SYSCALL, TRF_NORETURN | cur->atentry, R.event++, cur->p.pid);
		tw_put(&R.w, cur->stage.buf, cur->stage.len);
		tw_end(&R.w);
	}
	if (cur->p.pid == R.root)
		finish(st);
	begin(TR_TASKEXIT, 0);
	tw_put32(&R.w, st);
	tw_put32(&R.w, 0);
	robust_marks();
	tw_end(&R.w);
	ptemu_tracer_gone(cur);
	pid_t tgid = cur->tgid;
	drop_task(cur);
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->tgid == tgid)
			return;
	dirty_forget(tgid);	/* the process ended */
	record_forget(tgid);
}

/* A thread other than the leader (old) execs: the kernel ended the
 * other threads, gave it the leader's id, and reports its exec from
 * there (cur is the leader's task). The leader ends silently, and
 * whatever call it was in with it; the execing thread goes on under the
 * leader's id. */
static void leader_replaced(pid_t old)
{
	struct task *x = find_task(old), *l = cur;
	if (!x || x->tgid != l->p.pid)
		die(EXIT_TRACE, "exec of unknown thread %d in process %d", (int)old, l->p.pid);
	l->open = 0;
	record_exit(TR_TASKEXIT, 0);
	ptemu_tracer_gone(l);
	drop_task(l);
	if (x->p.memfd >= 0)
		close(x->p.memfd);
	x->p.memfd = -1;
	x->p.pid = x->tgid;
	x->exec_tid = old;
	cur = x;
}

/* Before the first buffered record of a drain, as begin() does. */
static void flush_all(void)
{
	flush_entries(UINT64_MAX);
}

void handle(int st)
{
	int k = pt_classify(st);
	/* The calls it made without a stop come before this one. */
	if (cur->state == T_RUN && (k == PS_SECCOMP || k == PS_SIGNAL))
		buf_drain(&cur->p, cur->nstash || cur->psys || cur->own.strict, &R.w, &R.event,
			  flush_all);
	if (k == PS_EXITED) {
		task_gone(st);
		return;
	}
	/* Killed since it stopped (kill -9 from outside, while rec drained
	 * its buffer, say): no request reaches it now, and its end is the
	 * next thing rec sees of it. */
	struct user_regs_struct r;
	if (pt_getregs_alive(&cur->p, &r) < 0)
		return;
	if (k == PS_SECCOMP && cur->advance) {
		/* A call before its edge, with a signal held: undone, and
		 * the signal delivered before it, as natively. */
		int a = advance_call(&r, &st);
		if (a < 0) {
			handle(st);
			return;
		}
		if (a > 0) {
			if (!sig_preempt(&r))
				R.run_tid = 0;
			return;
		}
	}
	if (k != PS_SIGNAL)
		advance_cancel();	/* a call or an event came before its edge */
	if (cur->state == T_NEW && k != PS_SIGNAL)
		die(EXIT_TRACE, "unexpected first stop 0x%x of thread %d", st, cur->p.pid);
	int ev = st >> 16;
	switch (k) {
	case PS_SECCOMP:
		R.run_tid = 0;
		R.seg_ticks = 0;
		cur->atentry = 0;
		syscall_entry();
		break;
	case PS_SYSEXIT:
		if (cur->p.entries && cur->state != T_KERNEL && pt_at_entry(&cur->p)) {
			syscall_at_entry(&r);
			break;
		}
		ptchld_exit();
		syscall_exit();
		break;
	case PS_EXEC: {
		unsigned long old = 0;
		ptrace(PTRACE_GETEVENTMSG, cur->p.pid, 0, &old);
		if (old != (unsigned long)cur->p.pid)
			leader_replaced(old);
		pt_reopen_mem(&cur->p);
		pt_resume(&cur->p, RESUME_SYSCALL, 0);
		break;
	}
	case PS_SIGNAL:
		if (cur->state == T_NEW) {
			cur->fresh = 0;
			cur->born_regs = r;
			/* ready once the parent's clone event named it */
			if (cur->p.memfd >= 0)
				ready(cur);
			break;
		}
		ptchld_signal(WSTOPSIG(st));
		int ds = do_signal(WSTOPSIG(st));
		if (ds < 0) {
			/* Let go, it faults again and dies of it (sig.h). */
			pid_t pid = cur->p.pid;
			R.run_tid = 0;
			task_gone(-ds);
			ptrace(PTRACE_DETACH, pid, 0, 0);
			break;
		}
		if (!ds)
			R.run_tid = 0;
		if (cur->state == T_STOPPED && cur->tracer)
			ptemu_group_stop(WSTOPSIG(st));
		break;
	default:
		if (ev == PTRACE_EVENT_CLONE || ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK) {
			unsigned long child = 0;
			ptrace(PTRACE_GETEVENTMSG, cur->p.pid, 0, &child);
			new_task(child, cur, (clone_flags(cur) & CLONE_THREAD) != 0);
			cur->child = child;
			ptemu_clone(find_task(child));
			uint64_t ret = child;
			memcpy(cur->stage.buf + 56, &ret, 8);
			if (ev == PTRACE_EVENT_CLONE && cur->state == T_KERNEL && R.clone_gives_way &&
			    (clone_flags(cur) & CLONE_THREAD)) {
				cur->clone_held = 1;	/* till another runs */
				break;
			}
		}
		pt_resume(&cur->p, cur->state == T_KERNEL ? RESUME_SYSCALL : RESUME_CONT, 0);
		break;
	}
}
