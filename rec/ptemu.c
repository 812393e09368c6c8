/* ptemu.c: ptrace for tracers inside the recorded tree. rec is the real
 * tracer of every thread, so a program's own ptrace is answered here and
 * never reaches the kernel. */
#include "bufdrain.h"
#include "events.h"
#include "ptchld.h"
#include "ptemu.h"
#include "records.h"
#include "sys.h"
#include "sys_names.h"
#include "util.h"

#include <elf.h>
#include <stddef.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* The options emulated: they change only what the tracer sees. */
#define OPTS (PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)
/* The size of the kernel's struct user, past which PEEKUSER and
 * POKEUSER fail (glibc's is 16 bytes shorter). */
#define KUSER_SIZE 928

/* An attached thread (a tracee) is "stopped" by not
 * being scheduled, and the tracer reads its state through rec. The
 * answers and what they wrote are recorded like any call's, so replay
 * gives them back without a tracer of its own. The subset: what
 * LeakSanitizer's StopTheWorld uses (ATTACH, SEIZE, INTERRUPT, GETREGS,
 * GETFPREGS, GETREGSET, PEEK*, DETACH and wait4 for the stops), and a
 * child's TRACEME with its signal stops (and its execve's SIGTRAP),
 * CONT, SYSCALL (stops at calls' entries and exits), KILL, GET/SETSIGINFO,
 * SETOPTIONS (OPTS), POKE* and SETREGS (the changes recorded as the
 * tracee's state); the rest is refused by name. */

/* What t's tracer changed in it (registers, memory), recorded as its
 * state before it runs again, so that replay makes the same changes. */
static void ptemu_record_dirty(struct task *t)
{
	if (!t->dirty)
		return;
	struct task *me = cur;
	struct user_regs_struct regs;
	cur = t;
	pt_getregs(&t->p, &regs);
	record_state(&regs, 0);
	cur = me;
	t->dirty = 0;
}

/* The requests rec emulates; others stop the recording, named. */
static int emulated(uint64_t req)
{
	static const uint64_t reqs[] = {
		PTRACE_TRACEME, PTRACE_PEEKTEXT, PTRACE_PEEKDATA, PTRACE_PEEKUSER,
		PTRACE_POKETEXT, PTRACE_POKEDATA, PTRACE_POKEUSER, PTRACE_CONT, PTRACE_KILL,
		PTRACE_SINGLESTEP, PTRACE_GETREGS, PTRACE_SETREGS, PTRACE_GETFPREGS,
		PTRACE_SETFPREGS, PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SYSCALL,
		PTRACE_SETOPTIONS, PTRACE_GETEVENTMSG, PTRACE_GETSIGINFO, PTRACE_SETSIGINFO,
		PTRACE_GETREGSET, PTRACE_SETREGSET, PTRACE_SEIZE, PTRACE_INTERRUPT,
		PTRACE_LISTEN, PTRACE_PEEKSIGINFO,
	};
	for (size_t i = 0; i < sizeof reqs / sizeof *reqs; i++)
		if (reqs[i] == req)
			return 1;
	return 0;
}

static void __attribute__((noreturn)) ptrace_refuse(uint64_t req, const char *why)
{
	const char *n = ptrace_name(req);
	char num[40];
	snprintf(num, sizeof num, "request %llu", (unsigned long long)req);
	stop_recording(EXIT_TRACE, "the program made syscall ptrace (%d) with %s%s, which rewind "
		       "cannot record yet; the trace %s ends before it", SYS_ptrace, n ? n : num, why,
		       rec_dir());
}

/* Write an emulated call's output into cur's memory, to be recorded at
 * the call's end. Returns 0, or -EFAULT. */
static int emu_put(uint64_t addr, const void *data, size_t len)
{
	if (cur->nemu_out == 2 || pt_write(&cur->p, addr, data, len) < 0)
		return -EFAULT;
	cur->emu_out[cur->nemu_out][0] = addr;
	cur->emu_out[cur->nemu_out++][1] = len;
	return 0;
}

/* A thread being attached may be inside a call that ends at once (a
 * sched_yield): let it end, so that its tracer sees it between calls,
 * as the SIGSTOP of a real attach would. One that blocks stays inside. */
static void settle(struct task *t)
{
	struct task *me = cur;
	pid_t tid = t->p.pid;
	for (int i = 0; i < 40 && find_task(tid) == t && (t->state == T_KERNEL || t->state == T_NEW);
	     i++) {
		int st;
		if (wait_any(tid, &st, 1) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle_other(st);
	}
	cur = me;
}

/* The registers a tracer reads from t: those of its stop, or for a
 * thread blocked in a call, those of the call's entry as an interrupted
 * call shows them (-ERESTARTSYS in rax). */
static void tracee_regs(struct task *t, struct user_regs_struct *r)
{
	if (t->state == T_KERNEL) {
		*r = t->entry_regs;
		r->rax = -512;
	} else {
		pt_getregs(&t->p, r);
	}
}

static int64_t ptrace_getregset(struct task *t, uint64_t type, uint64_t iovp)
{
	uint64_t iov[2];
	if (pt_read(&cur->p, iovp, iov, sizeof iov) != sizeof iov)
		return -EFAULT;
	static uint8_t buf[65536];
	size_t len = iov[1] < sizeof buf ? iov[1] : sizeof buf;
	if (type == NT_PRSTATUS) {
		struct user_regs_struct r;
		tracee_regs(t, &r);
		len = len < sizeof r ? len : sizeof r;
		memcpy(buf, &r, len);
	} else {
		/* The FP state of a thread blocked in a call cannot be read
		 * without stopping it for real. */
		struct iovec kiov = { buf, len };
		if (t->state == T_KERNEL)
			return -EIO;
		if (ptrace(PTRACE_GETREGSET, t->p.pid, type, &kiov) < 0)
			return -errno;
		len = kiov.iov_len;
	}
	iov[1] = len;
	if (emu_put(iov[0], buf, len) < 0 || emu_put(iovp + 8, &iov[1], 8) < 0)
		return -EFAULT;
	return 0;
}

/* The SIGTRAP a traced thread gets after its execve, sent by the kernel
 * as by itself. */
static siginfo_t exec_trap(void)
{
	siginfo_t si = { .si_signo = SIGTRAP, .si_code = SI_USER };
	si.si_pid = cur->tgid;
	si.si_uid = getuid();
	return si;
}

static void notify(struct task *t);

/* Answer cur's ptrace call (arguments a) without the kernel; returns
 * its result. Refuses what it does not emulate. */
static int64_t ptrace_emu(const uint64_t a[6])
{
	uint64_t req = a[0], addr = a[2], data = a[3];
	struct task *t = (int64_t)a[1] > 0 && a[1] <= INT32_MAX ? find_task(a[1]) : NULL;
	if (req == PTRACE_ATTACH || req == PTRACE_SEIZE) {
		if (!t && ((int32_t)a[1] <= 0 || (kill(a[1], 0) < 0 && errno == ESRCH)))
			return -ESRCH;	/* no such process (0 or less: none) */
		if (!t)
			ptrace_refuse(req, " of a process outside the recorded tree");
		if (t->tgid == cur->tgid || t->tracer)
			return -EPERM;
		if (req == PTRACE_SEIZE && (data & ~OPTS))
			ptrace_refuse(req, " with options other than TRACESYSGOOD and EXITKILL");
		settle(t);
		if (find_task(a[1]) != t)
			return -ESRCH;
		t->tracer = cur;
		t->popts = req == PTRACE_SEIZE ? data : 0;
		t->psys = t->pcall = 0;
		t->seized = req == PTRACE_SEIZE;
		t->pstop = !t->seized;
		t->report = t->pstop ? 0x137f : 0;	/* stopped by SIGSTOP */
		notify(t);
		return 0;
	}
	if (req == PTRACE_TRACEME) {
		if (cur->tracer)
			return -EPERM;
		if (!cur->parent)
			ptrace_refuse(req, " with its parent outside the recorded tree");
		cur->tracer = cur->parent;
		cur->seized = cur->pstop = cur->report = cur->psig = 0;
		cur->popts = cur->psys = cur->pcall = 0;
		return 0;
	}
	if (!emulated(req))
		ptrace_refuse(req, "");
	if (!t || t->tracer != cur)
		return -ESRCH;
	if (req == PTRACE_INTERRUPT) {
		if (!t->seized)
			return -EIO;
		/* The kernel interrupts a call the tracee sleeps in (it
		 * restarts when let go, as after a stop signal): rec's own
		 * SIGSTOP does that, and is never delivered. Only for a call
		 * replay answers, which it then restarts: one it performs
		 * (rt_sigsuspend) would wait there for a signal that never
		 * comes. Others stay in the kernel, shown as interrupted. */
		if (t->state == T_KERNEL && !t->pwait && !t->pstop && sys_row(t->nr)->class == C_EMU)
			syscall(SYS_tkill, t->p.pid, SIGSTOP);
		settle(t);
		if (find_task(a[1]) != t)
			return -ESRCH;
		if (!t->pstop)	/* a PTRACE_EVENT_STOP stop */
			t->report = ((PTRACE_EVENT_STOP << 8 | SIGTRAP) << 8) | 0x7f;
		t->pstop = 1;
		notify(t);
		return 0;
	}
	if (!t->pstop)
		return -ESRCH;
	struct user_regs_struct r;
	switch (req) {
	case PTRACE_SETOPTIONS:
		if (data & ~OPTS)
			ptrace_refuse(req, " with options other than TRACESYSGOOD and EXITKILL");
		t->popts = data;
		return 0;
	case PTRACE_GETSIGINFO:
		if (t->pgroup)
			return -EINVAL;	/* a group-stop has none */
		if (!t->psig)
			ptrace_refuse(req, " at a stop other than a signal's");
		return emu_put(data, &t->psi, sizeof t->psi);
	case PTRACE_SETSIGINFO: {
		/* The signal it stopped for goes on with this siginfo, if its
		 * tracer passes it on (recorded then). */
		siginfo_t si;
		if (t->pgroup)
			return -EINVAL;
		if (!t->psig || t->state != T_READY)
			ptrace_refuse(req, " at a stop other than a signal's");
		if (pt_read(&cur->p, data, &si, sizeof si) != sizeof si)
			return -EFAULT;
		if (ptrace(PTRACE_SETSIGINFO, t->p.pid, 0, &si) < 0)
			return -errno;
		t->psi = si;
		return 0;
	}
	case PTRACE_SYSCALL:
	case PTRACE_CONT:
	case PTRACE_DETACH:
		if (t->pgroup) {
			/* From a group-stop the signal is ignored, as the
			 * kernel does; detached, it stays in the group-stop
			 * (till a SIGCONT), let go, it runs. */
			t->pgroup = 0;
			t->pstop = t->report = 0;
			t->psys = req == PTRACE_SYSCALL;
			if (t->psys)
				buf_want_traced(&t->p);
			if (req == PTRACE_DETACH) {
				t->tracer = NULL, t->seized = 0, t->popts = 0;
				t->state = T_STOPPED;
			}
			return 0;
		}
		if (data && data != (uint64_t)t->psig)
			ptrace_refuse(req, t->psig ? " with another signal than the one it stopped for"
						  : " with a signal");
		ptemu_record_dirty(t);
		if (data) {
			/* Delivered now: recorded where replay raises it. */
			struct task *me = cur;
			cur = t;
			record_signal(data, t->pflags, &t->psi);
			cur = me;
			t->sig = data;
		}
		t->pstop = t->report = t->psig = 0;
		t->psys = req == PTRACE_SYSCALL;
		if (t->psys)	/* its next call stops, buffered or not */
			buf_want_traced(&t->p);
		t->pcall = t->pcall == P_ENTRY ? P_GO : 0;
		if (req == PTRACE_DETACH)
			t->tracer = NULL, t->seized = 0, t->popts = 0;
		if (t->ptrap) {
			/* The SIGTRAP of an execve, pending since its exit
			 * stop: it stops the tracee at once, or once
			 * detached is delivered (it kills by default). */
			struct task *me = cur;
			cur = t;
			siginfo_t si = exec_trap();
			t->ptrap = 0;
			if (t->tracer) {
				ptemu_signal_stop(SIGTRAP, 0, &si);
			} else {
				record_signal(SIGTRAP, 0, &si);
				t->sig = SIGTRAP;
			}
			cur = me;
		}
		return 0;
	case PTRACE_KILL:
		syscall(SYS_tkill, t->p.pid, SIGKILL);	/* stays unscheduled till it ends */
		return 0;
	case PTRACE_GETREGS:
		tracee_regs(t, &r);
		return emu_put(data, &r, sizeof r);
	case PTRACE_GETFPREGS: {
		struct user_fpregs_struct fp;
		if (t->state == T_KERNEL)
			return -EIO;
		if (ptrace(PTRACE_GETFPREGS, t->p.pid, 0, &fp) < 0)
			return -errno;
		return emu_put(data, &fp, sizeof fp);
	}
	case PTRACE_GETREGSET:
		return ptrace_getregset(t, addr, data);
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA: {
		uint64_t w;
		if (pt_read(&t->p, addr, &w, 8) != 8)
			return -EIO;
		return emu_put(data, &w, 8);
	}
	case PTRACE_PEEKUSER: {
		/* As the kernel reads struct user: the registers, the debug
		 * registers (rec sets none: the thread's own), 0 elsewhere. */
		uint64_t w = 0, dr = offsetof(struct user, u_debugreg);
		if (addr % 8 || addr >= KUSER_SIZE)
			return -EIO;
		if (addr < sizeof r) {
			tracee_regs(t, &r);
			memcpy(&w, (uint8_t *)&r + addr, 8);
		} else if (addr >= dr && addr < dr + 64) {
			if (t->state == T_KERNEL)
				ptrace_refuse(req, " of the debug registers of a thread blocked in a call");
			errno = 0;
			w = ptrace(PTRACE_PEEKUSER, t->p.pid, addr, 0);
			if (errno)
				return -errno;
		}
		return emu_put(data, &w, 8);
	}
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
	case PTRACE_POKEUSER:
	case PTRACE_SETREGS:
		/* Made on the thread at its stop now, and recorded as its
		 * state when it goes on (record_dirty). */
		if (t->state != T_READY)
			ptrace_refuse(req, " of a thread blocked in a call");
		if (t->pcall)
			ptrace_refuse(req, " at a syscall stop");
		if (req == PTRACE_POKEUSER && (addr % 8 || addr >= KUSER_SIZE))
			return -EIO;
		if (req == PTRACE_POKEUSER && addr >= sizeof r)
			ptrace_refuse(req, " beyond the general registers");
		/* Dirty only when something changed: its state is then
		 * recorded, which a failed poke need not cost. */
		if (req == PTRACE_POKETEXT || req == PTRACE_POKEDATA) {
			if (pt_write(&t->p, addr, &data, 8) < 0)
				return -EIO;
			t->dirty = 1;
			return 0;
		}
		struct user_regs_struct old;
		pt_getregs(&t->p, &r);
		old = r;
		if (req == PTRACE_POKEUSER)
			memcpy((uint8_t *)&r + addr, &data, 8);
		else if (pt_read(&cur->p, data, &r, sizeof r) != sizeof r)
			return -EFAULT;
		if (memcmp(&old, &r, sizeof r)) {
			pt_setregs(&t->p, &r);
			t->dirty = 1;
		}
		return 0;
	}
	ptrace_refuse(req, "");
}

/* Whether a wait4 of w (arguments a) is for a stop of t: the kernel
 * reports a tracee's stops to a wait of any thread of its tracer's
 * process (but with __WNOTHREAD only to the tracer's own), by the pid
 * as a wait names a child (-1, its id, 0 or -group: its group). */
static int waits_for(const struct task *w, const uint64_t a[6], const struct task *t)
{
	int pid = a[0];
	if (!t->tracer || (t->tracer != w && (t->tracer->tgid != w->tgid || (a[2] & __WNOTHREAD))))
		return 0;
	if (pid == -1 || pid == t->p.pid)
		return 1;
	if (pid > 0)
		return 0;
	pid_t g = getpgid(t->p.pid);
	return g >= 0 && g == (pid ? -pid : getpgid(w->p.pid));
}

int ptemu_wait(const uint64_t a[6], int64_t *ret)
{
	struct task *t = NULL, *mine = NULL;
	struct task *c;
	for (int i = 0; !t && (c = task_nth(i)); i++) {
		if (!waits_for(cur, a, c))
			continue;
		mine = c;
		if (c->report)
			t = c;
	}
	if (!mine)
		return 0;	/* a child of its own: the kernel answers */
	if (!t && !(a[2] & WNOHANG))
		return 2;	/* parked until a tracee stops or ends */
	if (a[3])
		stop_recording(EXIT_TRACE, "the program waits for a thread it traces with wait4 and "
			       "asks for its rusage, which rewind cannot record yet; the trace %s "
			       "ends before it", rec_dir());
	if (!t) {
		*ret = 0;
		return 1;
	}
	if (a[1] && emu_put(a[1], &t->report, 4) < 0) {
		*ret = -EFAULT;
		return 1;
	}
	if (!(a[2] & WNOWAIT))
		t->report = 0;
	*ret = t->p.pid;
	return 1;
}

int ptemu_call(struct user_regs_struct *regs)
{
	int64_t ret;
	int how = 1;
	cur->nemu_out = 0;
	ptchld_entry(regs->orig_rax, cur->a);
	if (regs->orig_rax == SYS_waitid)
		for (int i = 0; task_nth(i); i++)
			if (task_nth(i)->tracer == cur)
				stop_recording(EXIT_TRACE, "the program waits with waitid for a thread it "
					       "traces, which rewind cannot record yet; the trace %s "
					       "ends before it", rec_dir());
	if (regs->orig_rax == SYS_ptrace)
		ret = ptrace_emu(cur->a);
	else if (regs->orig_rax != SYS_wait4 || !(how = ptemu_wait(cur->a, &ret)))
		return 0;
	if (how == 2)
		return 2;
	regs->orig_rax = -1;
	regs->rax = ret;
	pt_setregs(&cur->p, regs);
	return 1;
}

/* A wait4 of tr parked for a stop of a tracee ends now, answered here
 * (or by the kernel, for a tracee that is gone). */
static void wake_one(struct task *tr, int gone)
{
	if (!tr->pwait)
		return;
	struct task *me = cur;
	struct user_regs_struct regs;
	int64_t ret;
	cur = tr;
	if (gone) {
		tr->pwait = 0;
		pt_resume(&tr->p, RESUME_SYSCALL, 0);
	} else if (ptemu_wait(tr->a, &ret) == 1) {
		pt_getregs(&tr->p, &regs);
		regs.orig_rax = -1;
		regs.rax = ret;
		pt_setregs(&tr->p, &regs);
		tr->pwait = 0;
		pt_resume(&tr->p, RESUME_SYSCALL, 0);
	}
	cur = me;
}

void ptemu_wake(struct task *t, int gone)
{
	struct task *w;
	for (int i = 0; t && t->tracer && (w = task_nth(i)); i++)
		if (w->pwait && waits_for(w, w->a, t))
			wake_one(w, gone);
}

/* t has a report: a wait4 for it (of a thread of its tracer's process)
 * ends. */
static void notify(struct task *t)
{
	struct task *w;
	if (t->report)
		ptchld_notify(t);
	for (int i = 0; t->report && (w = task_nth(i)); i++) {
		if (w->pwait && waits_for(w, w->a, t)) {
			wake_one(w, 0);
		} else if (w->state == T_KERNEL && w->nr == SYS_wait4 && !w->pwait && !w->kicked &&
			   waits_for(w, w->a, t)) {
			/* Inside the kernel's wait4 since before it traced: our
			 * SIGSTOP interrupts it, and its end becomes the stop's
			 * report (the SIGSTOP is rec's, never seen). */
			w->kicked = 1;
			syscall(SYS_tkill, w->p.pid, SIGSTOP);
		}
	}
}

/* cur stopped for its tracer (report set): it is not scheduled until its
 * tracer lets it go, and a wait4 for it ends. */
static void stopped(void)
{
	cur->pstop = 1;
	ready(cur);
	notify(cur);
}

void ptemu_signal_stop(int sig, int flags, const siginfo_t *si)
{
	cur->psig = sig;
	cur->pflags = flags;
	cur->psi = *si;
	cur->report = sig << 8 | 0x7f;
	stopped();
}

void ptemu_group_stop(int sig)
{
	cur->psig = cur->pcall = 0;
	cur->pgroup = 1;
	/* A seized tracee's group-stop is a PTRACE_EVENT_STOP. */
	cur->report = (cur->seized ? PTRACE_EVENT_STOP << 16 : 0) | sig << 8 | 0x7f;
	stopped();
}

/* cur stops at a call's entry or exit for PTRACE_SYSCALL. */
static void call_stop(int where)
{
	cur->pcall = where;
	cur->psys = cur->psig = 0;
	cur->report = (cur->popts & PTRACE_O_TRACESYSGOOD ? SIGTRAP | 0x80 : SIGTRAP) << 8 | 0x7f;
	stopped();
}

int ptemu_entry_stop(void)
{
	if (cur->pcall == P_GO) {
		cur->pcall = 0;
		return 0;
	}
	if (!cur->tracer || !cur->psys)
		return 0;
	call_stop(P_ENTRY);
	return 1;
}

void ptemu_exit_stop(long nr, int64_t ret)
{
	if (sys_row(nr)->class == C_EXECVE && ret == 0)
		ptchld_exec();
	if (!cur->tracer)
		return;
	int trap = sys_row(nr)->class == C_EXECVE && ret == 0 && !cur->seized;
	if (cur->psys) {
		call_stop(P_EXIT);
		cur->ptrap = trap;	/* its stop comes after this one */
	} else if (trap) {
		siginfo_t si = exec_trap();
		ptemu_signal_stop(SIGTRAP, 0, &si);
	}
}

/* t's tracer is gone: t goes on untraced, with the changes its tracer
 * made and the signal it stopped for. */
static void untrace(struct task *t)
{
	ptemu_record_dirty(t);
	if (t->popts & PTRACE_O_EXITKILL)
		syscall(SYS_tkill, t->p.pid, SIGKILL);
	t->pcall = t->pcall == P_ENTRY ? P_GO : 0;
	t->psys = t->popts = t->ptrap = 0;
	t->tracer = NULL;
	t->pstop = t->report = t->seized = 0;
	if (t->pgroup)
		t->state = T_STOPPED;	/* stays in the group-stop */
	t->pgroup = 0;
	if (t->psig && t->state == T_READY)
		t->sig = t->psig;	/* delivered after all */
	t->psig = 0;
}

void ptemu_tracer_gone(struct task *tr)
{
	struct task *t;
	ptchld_gone(tr);
	for (int i = 0; (t = task_nth(i)); i++)
		if (t->tracer == tr)
			untrace(t);
}
