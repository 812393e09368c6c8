/* ptemu.c: ptrace for tracers inside the recorded tree. rec is the real
 * tracer of every thread, so a program's own ptrace is answered here and
 * never reaches the kernel. */
#include "count.h"
#include "bufdrain.h"
#include "events.h"
#include "ptchld.h"
#include "ptemu.h"
#include "ptpatch.h"
#include "ptstep.h"
#include "records.h"
#include "sys.h"
#include "sys_names.h"
#include "util.h"

#include <elf.h>
#include <linux/capability.h>
#include <stddef.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* The options emulated: they change what the tracer sees, and which
 * new threads it traces from their start. */
#define OPTS (PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | \
	      PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
	      PTRACE_O_TRACEVFORKDONE | PTRACE_O_TRACEEXIT)
#define OPTS_NAMES "TRACESYSGOOD, EXITKILL, TRACEEXEC, TRACEFORK, TRACEVFORK, TRACECLONE, " \
	"TRACEVFORKDONE and TRACEEXIT"
/* The kernel's struct ptrace_syscall_info, and its op values. */
struct syscall_info {
	uint8_t op, pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	union {
		struct { uint64_t nr, args[6]; } entry;
		struct { int64_t rval; uint8_t is_error; } exit;
	};
};
#define INFO_NONE 0
#define INFO_ENTRY 1
#define INFO_EXIT 2
#define AUDIT_ARCH_X86_64 0xc000003eu
/* The size of the kernel's struct user, past which PEEKUSER and
 * POKEUSER fail (glibc's is 16 bytes shorter). */
#define KUSER_SIZE 928

/* An attached thread (a tracee) is "stopped" by not being scheduled,
 * and the tracer reads its state through rec. The answers and what
 * they wrote are recorded like any call's, so replay gives them back
 * without a tracer of its own. What a tracer changes in its tracee
 * (registers, data, FP state; at a stop between calls or at a syscall
 * stop) is recorded as the tracee's state when it goes on, which replay
 * sets; what it writes into code (breakpoints) is made and kept by
 * ptpatch.c, and single steps are made at once by ptstep.c: replay
 * reaches each stop they cause by the state recorded there, never by
 * running the tracer's changes. Emulated: ATTACH, SEIZE, INTERRUPT,
 * LISTEN, TRACEME with its signal stops (and its execve's SIGTRAP),
 * CONT, SYSCALL, SINGLESTEP, KILL, DETACH, GET/SETREGS, GET/SETFPREGS,
 * GET/SETREGSET, PEEK*, POKE*, GET/SETSIGINFO, SETOPTIONS (OPTS),
 * GETEVENTMSG, GET_SYSCALL_INFO and wait4 for the stops; the rest is
 * refused by name. */

/* t's tracer wants (on) or no longer wants its next call: resumed, it
 * then stops at each call's entry too (p.entries), so that the calls the
 * filter lets through (pt_untraced_call) stop for the tracer as natively. */
static void want_calls(struct task *t, int on)
{
	t->psys = on;
	t->p.entries = on && pt_untraced_queries;
}

/* What t's tracer changed in it (registers, memory), recorded as its
 * state before it runs again, so that replay makes the same changes. */
void ptemu_record_dirty(struct task *t)
{
	if (!t->dirty)
		return;
	struct task *me = cur;
	struct user_regs_struct regs;
	cur = t;
	pt_getregs(&t->p, &regs);
	if (t->pcall == P_ENTRY || t->pcall == P_GO) {
		/* At a call's entry, not begun: the state is that before
		 * its syscall instruction, with the number its tracer left,
		 * so that replay makes the call as changed (and goes on
		 * after it). A tracer that moved it elsewhere: replay could
		 * not make the call there. */
		uint16_t insn = 0;
		regs.rip -= 2;
		regs.rax = regs.orig_rax;
		if (pt_read(&t->p, regs.rip, &insn, 2) != 2 || insn != 0x050f)
			stop_recording(EXIT_TRACE, "the program's tracer moved its tracee %d at a "
				       "syscall-entry stop to 0x%llx, after no syscall instruction, "
				       "which rewind cannot record yet; the trace %s ends before it",
				       t->p.pid, (unsigned long long)regs.rip + 2, rec_dir());
	}
	record_state(&regs, 0);
	cur = me;
	t->dirty = 0;
}

int ptemu_poked(struct task *t, uint64_t addr, uint64_t len)
{
	if (!t || !t->tracer || t->tracer->tgid != cur->tgid)
		return 0;
	int ro = ptpatch_readonly(t, addr, len);
	if (ro == 1)
		return 1;	/* its original bytes were kept at the call's entry */
	if (ro < 0 || !t->pstop || t->plisten || t->state != T_READY)
		stop_recording(EXIT_TRACE, "the program wrote through /proc/PID/mem into its tracee "
			       "%d %s, which rewind cannot record yet; the trace %s ends before it",
			       t->p.pid, ro < 0 ? "across its code and data" :
			       "while it is not stopped between calls or at one", rec_dir());
	t->dirty = 1;
	return 1;
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
		PTRACE_LISTEN, PTRACE_PEEKSIGINFO, 0x420e /* PTRACE_GET_SYSCALL_INFO */,
	};
	for (size_t i = 0; i < sizeof reqs / sizeof *reqs; i++)
		if (reqs[i] == req)
			return 1;
	return 0;
}

/* The ids of a Uid: or Gid: line of /proc/PID/status (real, effective,
 * saved); 0 when it cannot be read. */
static int status_ids(pid_t pid, const char *field, unsigned id[3])
{
	char line[256];
	const char *s = pt_status(pid, field, line, sizeof line);
	return s && sscanf(s, "%u %u %u", &id[0], &id[1], &id[2]) == 3;
}

/* Whether thread caller may attach to thread target, by the kernel's
 * first rule (ptrace_may_access): the caller's real uid and gid are the
 * target's real, effective and saved ones, or it has CAP_SYS_PTRACE.
 * The kernel's other rules (dumpable, Yama) only refuse more; those are
 * left to the program's tracees in the recorded tree, which rec traces. */
static int may_attach(pid_t caller, pid_t target)
{
	unsigned cu[3], cg[3], tu[3], tg[3];
	if (pt_cap_eff(caller, CAP_SYS_PTRACE) == 1)
		return 1;
	if (!status_ids(caller, "Uid:", cu) || !status_ids(caller, "Gid:", cg) ||
	    !status_ids(target, "Uid:", tu) || !status_ids(target, "Gid:", tg))
		return 1;	/* unknown: as before */
	return cu[0] == tu[0] && cu[0] == tu[1] && cu[0] == tu[2] && cg[0] == tg[0] &&
	       cg[0] == tg[1] && cg[0] == tg[2];
}

/* Whether an x86-64 kernel has request req (rec emulates some of them);
 * for any other it answers EIO. */
static int kernel_knows(uint64_t req)
{
	return req <= PTRACE_SETFPREGS || req == PTRACE_ATTACH || req == PTRACE_DETACH ||
	       req == 21 /* PTRACE_OLDSETOPTIONS */ || req == PTRACE_SYSCALL ||
	       (req >= 25 && req <= 26) /* PTRACE_GET_THREAD_AREA, SET_ */ ||
	       (req >= 30 && req <= 33) /* ARCH_PRCTL, SYSEMU(_SINGLESTEP), SINGLEBLOCK */ ||
	       (req >= 0x4200 && req <= 0x4212);
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
 * as the SIGSTOP of a real attach would. One that blocks stays inside.
 * With stopping set, a SIGSTOP is on its way to t, whose stop is sure
 * to come: wait for it up to a second, not just 40 yields, since t may
 * have to wait for a CPU (unpinned, on a loaded machine). */
static void settle(struct task *t, int stopping)
{
	struct task *me = cur;
	pid_t tid = t->p.pid;
	uint64_t until = clock_ns(CLOCK_MONOTONIC) + 1000000000;
	for (int i = 0; find_task(tid) == t && (t->state == T_KERNEL || t->state == T_NEW); i++) {
		int st;
		if (wait_any(tid, &st, 1) == 0) {
			if (i < 40)
				sched_yield();
			else if (stopping && clock_ns(CLOCK_MONOTONIC) < until)
				usleep(100);
			else
				break;
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
		r->rax = t->pinside ? -ENOSYS : -512;	/* at its vfork event, or blocked */
	} else {
		pt_getregs(&t->p, r);
		if (t->pinside)	/* at an event inside its call, not yet ended */
			r->rax = -ENOSYS;
	}
}

/* PTRACE_PEEKSIGINFO of t (its struct at addr, the siginfos to data), as
 * the kernel checks its arguments; the queue is t's own in the kernel,
 * read by rec, its tracer, where t waits. Refused where rec holds some of
 * t's signals (they are pending natively) or t is blocked in a call. */
static int64_t peek_siginfo(struct task *t, uint64_t addr, uint64_t data)
{
	struct __ptrace_peeksiginfo_args arg;
	if (pt_read(&cur->p, addr, &arg, sizeof arg) != sizeof arg)
		return -EFAULT;
	if ((arg.flags & ~PTRACE_PEEKSIGINFO_SHARED) || arg.nr < 0)
		return -EINVAL;
	if (!arg.nr)
		return 0;
	if (t->nstash || t->state == T_KERNEL)
		ptrace_refuse(PTRACE_PEEKSIGINFO, t->nstash ? " of a thread whose signals rec holds"
							   : " of a thread blocked in a call");
	if (arg.nr > 4096)
		arg.nr = 4096;	/* more than any queue a program gets */
	siginfo_t *q = xmalloc(arg.nr * sizeof *q);
	long n = ptrace(PTRACE_PEEKSIGINFO, t->p.pid, &arg, q);
	int64_t ret = n < 0 ? -errno : n > 0 && emu_put(data, q, n * sizeof *q) < 0 ? -EFAULT : n;
	free(q);
	return ret;
}

/* PTRACE_GET_SYSCALL_INFO of t (size bytes to data), as the kernel fills
 * it: entry and exit only at the syscall stops of PTRACE_O_TRACESYSGOOD
 * (the siginfo's code SIGTRAP | 0x80), none elsewhere. */
static int64_t syscall_info(struct task *t, uint64_t size, uint64_t data)
{
	struct user_regs_struct r;
	struct syscall_info si;
	memset(&si, 0, sizeof si);
	tracee_regs(t, &r);
	si.op = INFO_NONE;
	si.arch = AUDIT_ARCH_X86_64;
	si.ip = r.rip;
	si.sp = r.rsp;
	size_t n = offsetof(struct syscall_info, entry);
	int sysgood = t->ptinfo && t->psi.si_code == (SIGTRAP | 0x80);
	if (t->pcall == P_ENTRY && sysgood) {
		si.op = INFO_ENTRY;
		si.entry.nr = r.orig_rax;
		uint64_t a[6] = { r.rdi, r.rsi, r.rdx, r.r10, r.r8, r.r9 };
		memcpy(si.entry.args, a, sizeof a);
		n = offsetof(struct syscall_info, entry.args) + sizeof si.entry.args;
	} else if (t->pcall == P_EXIT && sysgood) {
		si.op = INFO_EXIT;
		si.exit.rval = r.rax;
		si.exit.is_error = r.rax >= (uint64_t)-4095;
		n = offsetof(struct syscall_info, exit.is_error) + 1;
	}
	if (size && emu_put(data, &si, size < n ? size : n) < 0)
		return -EFAULT;
	return n;
}

static int64_t ptrace_getregset(struct task *t, uint64_t type, uint64_t iovp)
{
	uint64_t iov[2];
	if (pt_read(&cur->p, iovp, iov, sizeof iov) != sizeof iov)
		return -EFAULT;
	static uint8_t buf[65536];
	size_t len = iov[1] < sizeof buf ? iov[1] : sizeof buf;
	if ((uint32_t)type == NT_PRSTATUS) {	/* the type is an unsigned int */
		if (iov[1] % 8)
			return -EINVAL;	/* not whole registers, as the kernel says */
		struct user_regs_struct r;
		tracee_regs(t, &r);
		len = len < sizeof r ? len : sizeof r;
		memcpy(buf, &r, len);
	} else {
		/* The FP state of a thread blocked in a call cannot be read
		 * without stopping it for real. */
		struct iovec kiov = { buf, len };
		if (t->state == T_KERNEL && t->pinside)
			ptrace_refuse(PTRACE_GETREGSET, " of FP state at a vfork event");
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
static void after_stops(void);
static void trap_info(int code);

/* Whether a SIGCONT is pending for t (its own or its process's): a
 * traced thread's signals wait for its tracer. */
static int cont_pending(struct task *t)
{
	uint64_t pend = 0, shared = 0;
	if (pt_status_hex(t->p.pid, "SigPnd:", &pend) < 0 ||
	    pt_status_hex(t->p.pid, "ShdPnd:", &shared) < 0)
		return 0;
	return ((pend | shared) >> (SIGCONT - 1)) & 1;
}

/* t (seized, at a PTRACE_EVENT_STOP) is let go with PTRACE_LISTEN: it
 * stays in its group-stop, not stopped for ptrace, until the group-stop
 * ends (a SIGCONT), and then traps again at once, a PTRACE_EVENT_STOP
 * with SIGTRAP (the kernel's JOBCTL_TRAP_NOTIFY). A SIGCONT that came
 * before makes it trap again now. */
/* t single-steps (ptstep.h), and what the step ended in is made: its
 * state before a call it entered (the steps up to it) and the call; or
 * a signal stop for its tracer, at a place replay reaches only by the
 * state recorded when it goes on. */
static int64_t step(struct task *t, int sig)
{
	struct task *me = cur;
	siginfo_t si;
	int st;
	switch (ptstep(t, sig, &st, &si)) {
	case PTSTEP_CALL:
		t->pcall = P_ENTRY;
		ptemu_record_dirty(t);
		t->pcall = 0;
		cur = t;
		handle_other(st);
		break;
	case PTSTEP_STOP:
		cur = t;
		ptemu_signal_stop(si.si_signo, 0, &si);
		break;
	}
	cur = me;
	return 0;
}

static void listen(struct task *t)
{
	t->report = 0;
	t->plisten = 1;
	tasks_continued = ptemu_continued;	/* a SIGCONT in tasks.c's sight traps it */
	t->psig = 0;
	if (!t->pgroup)
		return;	/* not in a group-stop: only PTRACE_INTERRUPT ends it */
	if (t->state == T_STOPPED && !cont_pending(t))
		return;	/* ptemu_continued traps it when a SIGCONT comes */
	ptemu_continued(t);
}

void ptemu_continued(struct task *t)
{
	if (!t->plisten || !t->pgroup)
		return;
	struct task *me = cur;
	t->plisten = t->pgroup = t->pgsig = 0;
	t->report = ((PTRACE_EVENT_STOP << 8 | SIGTRAP) << 8) | 0x7f;
	t->pmsg = 0;
	cur = t;
	trap_info(PTRACE_EVENT_STOP << 8 | SIGTRAP);
	/* The SIGCONT is delivered when it is let go: where it stopped
	 * (at a call's exit), the kernel would deliver it there, before
	 * any more of its code, and so does rec. */
	if (t->at_exit)
		t->exit_pend[1] |= 1ull << (SIGCONT - 1);
	cur = me;
	if (t->state == T_STOPPED)
		ready(t);
	t->pstop = 1;
	notify(t);
}

/* Whether t can be changed by its tracer here: stopped between calls
 * or at a call's entry or exit (then its state is recorded when it goes
 * on, and replay sets it: after the call, or before its syscall
 * instruction); refuses request req by name elsewhere. */
static void changeable(const struct task *t, uint64_t req)
{
	if (t->state != T_READY)
		ptrace_refuse(req, " of a thread blocked in a call");
}

/* SETFPREGS (data: the tracer's buffer), or SETREGSET of an FP or
 * vector regset (type; data: the tracer's iovec): set on the thread,
 * recorded with its state (IT_XSTATE) when it goes on. */
static int64_t set_fpstate(struct task *t, uint64_t req, uint64_t type, uint64_t data)
{
	static uint8_t buf[65536];
	uint64_t iov[2] = { data, sizeof(struct user_fpregs_struct) };
	changeable(t, req);
	if (req == PTRACE_SETREGSET && pt_read(&cur->p, data, iov, sizeof iov) != sizeof iov)
		return -EFAULT;
	size_t len = iov[1] < sizeof buf ? iov[1] : sizeof buf;
	if (pt_read(&cur->p, iov[0], buf, len) != (ssize_t)len)
		return -EFAULT;
	struct iovec kiov = { buf, len };
	long r = req == PTRACE_SETFPREGS ? ptrace(PTRACE_SETFPREGS, t->p.pid, 0, buf) :
					   ptrace(PTRACE_SETREGSET, t->p.pid, type, &kiov);
	if (r < 0)
		return -errno;
	t->dirty = 1;
	if (req == PTRACE_SETREGSET) {
		uint64_t n = kiov.iov_len;
		return emu_put(data + 8, &n, 8);
	}
	return 0;
}

/* SETREGSET of NT_PRSTATUS (data: the tracer's iovec): the general
 * registers, as SETREGS sets them, from as many bytes as given. */
static int64_t set_prstatus(struct task *t, uint64_t data)
{
	struct user_regs_struct r, old;
	uint64_t iov[2];
	changeable(t, PTRACE_SETREGSET);
	if (pt_read(&cur->p, data, iov, sizeof iov) != sizeof iov)
		return -EFAULT;
	if (iov[1] % 8)
		return -EINVAL;	/* not whole registers, as the kernel says */
	size_t len = iov[1] < sizeof r ? iov[1] : sizeof r;
	pt_getregs(&t->p, &r);
	old = r;
	if (pt_read(&cur->p, iov[0], &r, len) != (ssize_t)len)
		return -EFAULT;
	if (memcmp(&old, &r, sizeof r)) {
		pt_setregs(&t->p, &r);
		t->dirty = 1;
	}
	uint64_t n = len;
	return emu_put(data + 8, &n, 8);
}

/* POKEUSER of t's user area at addr past the general registers: the
 * debug registers are set on the thread itself (rec sets none), where
 * they stop it as natively; replay needs none, since it sets the state
 * each such stop leads to. The rest of the area is read-only (EIO). */
static int64_t poke_debugreg(struct task *t, uint64_t addr, uint64_t data)
{
	uint64_t dr = offsetof(struct user, u_debugreg);
	if (addr < dr || addr >= dr + 64)
		return -EIO;
	if (t->state != T_READY)
		ptrace_refuse(PTRACE_POKEUSER, " of the debug registers of a thread blocked in a call");
	if (ptrace(PTRACE_POKEUSER, t->p.pid, addr, data) < 0)
		return -errno;
	return 0;
}

/* t, stopped for its tracer, goes on with signal sig (0: none): what
 * its tracer changed is recorded as its state, and the signal where
 * replay raises it (at that state, raised there as from outside). */
static void pass_on(struct task *t, int sig, int step)
{
	/* A fault it stopped for (a breakpoint's SIGTRAP): replay, with
	 * none of its tracer's breakpoints in its code, never stops there;
	 * it is set there (and raises the signal, if passed on). */
	if (t->psig && !t->ptinfo && ptstep_fault(&t->psi) && t->state == T_READY && !t->pcall)
		t->dirty = 1;
	/* Stepped, with no signal: the state after the step says all
	 * (one record for a run of steps, not one each). */
	if (step && !sig)
		return;
	int set = t->dirty;
	ptemu_record_dirty(t);
	if (sig) {
		struct task *me = cur;
		cur = t;
		record_signal(sig, t->pflags | (set ? TRS_ASYNC : 0), &t->psi);
		cur = me;
	}
}

/* Answer cur's ptrace call (arguments a) without the kernel; returns
 * its result. Refuses what it does not emulate. */
static int64_t ptrace_emu(const uint64_t a[6])
{
	uint64_t req = a[0], addr = a[2], data = a[3];
	pid_t pid = (pid_t)a[1];	/* a pid_t to the kernel: the high bits do not count */
	struct task *t = pid > 0 ? find_task(pid) : NULL;
	if (req == PTRACE_ATTACH || req == PTRACE_SEIZE) {
		if (!t && pt_no_process(pid))
			return -ESRCH;	/* no such process (0 or less: none) */
		if (!t)
			ptrace_refuse(req, " of a process outside the recorded tree");
		if (t->tgid == cur->tgid || t->tracer || !may_attach(cur->p.pid, t->p.pid))
			return -EPERM;
		if (req == PTRACE_SEIZE && (data & ~OPTS))
			ptrace_refuse(req, " with options other than " OPTS_NAMES);
		settle(t, 0);
		if (find_task(pid) != t)
			return -ESRCH;
		count_traced(&t->p, t->tgid);	/* its tracer sees its own code */
		t->tracer = cur;
		t->popts = req == PTRACE_SEIZE ? data : 0;
		want_calls(t, 0);
		t->pcall = 0;
		t->seized = req == PTRACE_SEIZE;
		t->pstop = !t->seized;
		t->report = t->pstop ? 0x137f : 0;	/* stopped by SIGSTOP */
		t->psig = 0;
		t->ptinfo = t->pstop;
		if (t->pstop) {
			/* The SIGSTOP the kernel sends (SEND_SIG_PRIV), never
			 * delivered: its siginfo for PTRACE_GETSIGINFO. */
			memset(&t->psi, 0, sizeof t->psi);
			t->psi.si_signo = SIGSTOP;
			t->psi.si_code = SI_KERNEL;
		}
		if (t->state == T_STOPPED) {
			/* In a group-stop, it traps at once into it (the
			 * kernel's JOBCTL_TRAP_STOP): seized, a
			 * PTRACE_EVENT_STOP with the group-stop's signal. */
			t->pstop = t->pgroup = 1;
			t->report = (t->seized ? PTRACE_EVENT_STOP << 16 : 0) | SIGSTOP << 8 | 0x7f;
			if (t->seized) {
				struct task *me = cur;
				cur = t;
				trap_info(PTRACE_EVENT_STOP << 8 | SIGSTOP);
				cur = me;
			}
		}
		notify(t);
		return 0;
	}
	if (req == PTRACE_TRACEME) {
		if (cur->tracer)
			return -EPERM;
		if (!cur->parent)
			ptrace_refuse(req, " with its parent outside the recorded tree");
		cur->tracer = cur->parent;
		count_traced(&cur->p, cur->tgid);	/* its tracer sees its own code */
		cur->seized = cur->pstop = cur->report = cur->psig = 0;
		cur->popts = cur->pcall = 0;
		want_calls(cur, 0);
		return 0;
	}
	if (!emulated(req)) {
		/* The kernel looks at the request only once the pid names a
		 * tracee of the caller stopped for it; else ESRCH. */
		if (!t || t->tracer != cur || !t->pstop || t->plisten)
			return -ESRCH;
		if (!kernel_knows(req))
			return -EIO;
		ptrace_refuse(req, req == 31 || req == 32 /* PTRACE_SYSEMU(_SINGLESTEP) */ ?
			      " (a tracer that makes its tracee's calls itself)" : "");
	}
	if (!t || t->tracer != cur)
		return -ESRCH;
	if (t->plisten && req != PTRACE_INTERRUPT && req != PTRACE_KILL)
		return -ESRCH;	/* not stopped for ptrace while it listens */
	if (req == PTRACE_INTERRUPT) {
		if (!t->seized)
			return -EIO;
		/* The kernel interrupts a call the tracee sleeps in (it
		 * restarts when let go, as after a stop signal): rec's own
		 * SIGSTOP does that, and is never delivered. Only for a call
		 * replay answers, which it then restarts: one it performs
		 * (rt_sigsuspend) would wait there for a signal that never
		 * comes. Others stay in the kernel, shown as interrupted. */
		int stopping = t->state == T_KERNEL && !t->pwait && !t->pstop &&
			       sys_row(t->nr)->class == C_EMU;
		if (stopping)
			syscall(SYS_tkill, t->p.pid, SIGSTOP);
		settle(t, stopping);
		if (find_task(pid) != t)
			return -ESRCH;
		if (t->plisten) {
			/* Still in its group-stop: it traps with its signal. */
			int sig = t->psi.si_code & 0x7f;
			t->plisten = 0;
			t->report = ((PTRACE_EVENT_STOP << 8 | sig) << 8) | 0x7f;
			t->pmsg = 0;
			struct task *me = cur;
			cur = t;
			trap_info(PTRACE_EVENT_STOP << 8 | sig);
			cur = me;
		} else if (!t->pstop) {	/* a PTRACE_EVENT_STOP stop */
			/* With the group-stop's signal while its group is
			 * stopped still, else SIGTRAP (the kernel's
			 * do_jobctl_trap). */
			int sig = t->pgsig ? t->pgsig : SIGTRAP;
			t->report = ((PTRACE_EVENT_STOP << 8 | sig) << 8) | 0x7f;
			t->pmsg = 0;
			t->psig = 0;	/* (a call let go at its entry stays so) */
			struct task *me = cur;
			cur = t;
			trap_info(PTRACE_EVENT_STOP << 8 | sig);
			cur = me;
		}
		t->pstop = 1;
		notify(t);
		return 0;
	}
	if (!t->pstop)
		return -ESRCH;
	struct user_regs_struct r;
	switch (req) {
	case PTRACE_LISTEN:
		if (!t->seized || !t->ptinfo || t->psi.si_code >> 8 != PTRACE_EVENT_STOP)
			return -EIO;
		listen(t);
		return 0;
	case PTRACE_SINGLESTEP:
		if (t->pgroup)
			ptrace_refuse(req, " from a group-stop");
		if (data && data != (uint64_t)t->psig)
			ptrace_refuse(req, t->psig ? " with another signal than the one it stopped for"
						  : " with a signal at a stop other than a signal's");
		ptstep_check(t);
		pass_on(t, data, 1);
		return step(t, data);
	case PTRACE_SETOPTIONS:
		if (data & ~OPTS)
			ptrace_refuse(req, " with options other than " OPTS_NAMES);
		t->popts = data;
		return 0;
	case PTRACE_GETEVENTMSG:
		return emu_put(data, &t->pmsg, 8);
	case 0x420e:	/* PTRACE_GET_SYSCALL_INFO */
		return syscall_info(t, addr, data);
	case PTRACE_PEEKSIGINFO:
		return peek_siginfo(t, addr, data);
	case PTRACE_GETSIGINFO:
		if (t->pgroup && !t->seized)
			return -EINVAL;	/* a group-stop has none (seized: a trap's) */
		if (!t->psig && !t->ptinfo)
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
			ptpatch_check(t);
			exit_pend_now(t);	/* a signal that came while
						   it was stopped for its tracer
						   (its child's SIGCHLD) */
			t->pgroup = 0;
			t->pstop = t->report = 0;
			want_calls(t, req == PTRACE_SYSCALL);
			if (t->psys)
				buf_want_traced(&t->p);
			if (req == PTRACE_DETACH) {
				t->tracer = NULL, t->seized = 0, t->popts = 0, t->pgsig = 0;
				t->state = T_STOPPED;
			} else if (t->state == T_STOPPED) {
				ready(t);	/* attached in its group-stop */
			}
			return 0;
		}
		if (data && data != (uint64_t)t->psig)
			ptrace_refuse(req, t->psig ? " with another signal than the one it stopped for"
						  : " with a signal at a stop other than a signal's");
		pass_on(t, data, 0);
		ptpatch_check(t);
		exit_pend_now(t);	/* as above */
		t->sig = data;
		t->pstop = t->report = t->psig = t->ptinfo = t->pinside = 0;
		want_calls(t, req == PTRACE_SYSCALL);
		if (t->psys)	/* its next call stops, buffered or not */
			buf_want_traced(&t->p);
		t->pcall = t->pcall == P_ENTRY || t->pcall == P_GO ? P_GO : 0;
		if (req == PTRACE_DETACH)
			t->tracer = NULL, t->seized = 0, t->popts = 0;
		if (t->pvfdone || t->pexit || t->ptrap || t->pstepsys) {
			/* The stops that come after this one in its call. */
			struct task *me = cur;
			cur = t;
			after_stops();
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
		if (t->state == T_KERNEL && t->pinside)
			ptrace_refuse(req, " at a vfork event");
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
	case PTRACE_SETFPREGS:
	case PTRACE_SETREGSET:
		if (req == PTRACE_SETREGSET && (uint32_t)addr == NT_PRSTATUS)
			return set_prstatus(t, data);
		return set_fpstate(t, req, addr, data);
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		if (ptpatch_readonly(t, addr, 8) == 1) {
			/* Its code (a breakpoint): made, and never replayed. */
			ptpatch_note(t, addr, 8);
			return pt_write(&t->p, addr, &data, 8) < 0 ? -EIO : 0;
		}
		/* fall through */
	case PTRACE_POKEUSER:
	case PTRACE_SETREGS:
		if (req == PTRACE_POKEUSER && (addr % 8 || addr >= KUSER_SIZE))
			return -EIO;
		if (req == PTRACE_POKEUSER && addr >= sizeof r)
			return poke_debugreg(t, addr, data);
		/* Made on the thread at its stop now, and recorded as its
		 * state when it goes on (record_dirty). */
		changeable(t, req);
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

/* The ends of tracees whose tracer is not their parent (or that are
 * threads), which only the tracer's wait4 reports (the kernel's does a
 * process's to its parent). */
static struct { struct task *tr; pid_t pid, pgid; int st; } dead[64];
static int ndead;

/* Whether a wait4 of w (arguments a) is for dead[i]. */
static int waits_dead(const struct task *w, const uint64_t a[6], int i)
{
	struct task *tr = dead[i].tr;
	int pid = a[0];
	if (tr != w && (tr->tgid != w->tgid || (a[2] & __WNOTHREAD)))
		return 0;
	if (pid == -1 || pid == dead[i].pid)
		return 1;
	return pid <= 0 && dead[i].pgid >= 0 && dead[i].pgid == (pid ? -pid : getpgid(w->p.pid));
}

int ptemu_wait(const uint64_t a[6], int64_t *ret)
{
	struct task *t = NULL, *mine = NULL;
	struct task *c;
	int d = -1;
	for (int i = 0; !t && (c = task_nth(i)); i++) {
		if (!waits_for(cur, a, c))
			continue;
		mine = c;
		if (c->report)
			t = c;
	}
	for (int i = 0; !t && d < 0 && i < ndead; i++)
		if (waits_dead(cur, a, i))
			d = i;
	if (d >= 0) {
		if (a[3])
			stop_recording(EXIT_TRACE, "the program waits for a thread it traces with "
				       "wait4 and asks for its rusage, which rewind cannot record "
				       "yet; the trace %s ends before it", rec_dir());
		if (a[1] && emu_put(a[1], &dead[d].st, 4) < 0) {
			*ret = -EFAULT;
			return 1;
		}
		*ret = dead[d].pid;
		if (!(a[2] & WNOWAIT))
			dead[d] = dead[--ndead];
		return 1;
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
	ptpatch_entry(regs->orig_rax, cur->a);
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

void ptemu_exited(int st)
{
	struct task *tr = cur->tracer, *p = cur->parent;
	if (tr && (cur->popts & PTRACE_O_TRACEEXIT) && !cur->pexitev)
		stop_recording(EXIT_TRACE, "a thread traced with PTRACE_O_TRACEEXIT ended other than "
			       "by exit or exit_group, whose PTRACE_EVENT_EXIT stop rewind cannot "
			       "make yet; the trace %s ends here", rec_dir());
	if (!tr || (p && p->tgid == tr->tgid && cur->p.pid == cur->tgid))
		return;	/* the kernel reports a process's end to its parent */
	ptchld_ended(cur, tr, st);
	if (ndead == 64)
		stop_recording(EXIT_TRACE, "over 64 ends of traced threads wait for their tracer, "
			       "which rewind cannot record yet; the trace %s ends before it",
			       rec_dir());
	dead[ndead].tr = tr;
	dead[ndead].pid = self_id(cur->p.pid, cur->p.pid);
	dead[ndead].pgid = getpgid(cur->p.pid);
	dead[ndead++].st = st & 0xffff;
	/* Untraced now: the wait4s parked for it are answered from dead. */
	cur->tracer = NULL;
	struct task *w;
	for (int i = 0; (w = task_nth(i)); i++)
		if (w->pwait && waits_dead(w, w->a, ndead - 1))
			wake_one(w, 0);
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
	if (sig == SIGCONT)
		cur->pgsig = 0;
	cur->psig = sig;
	cur->ptinfo = cur->pinside = 0;
	cur->pmsg = 0;	/* a signal's stop sets the message to 0 */
	cur->pflags = flags;
	cur->psi = *si;
	cur->report = sig << 8 | 0x7f;
	stopped();
}

void ptemu_group_stop(int sig)
{
	cur->psig = cur->pcall = cur->ptinfo = cur->pinside = 0;
	cur->pmsg = 0;
	cur->pgroup = 1;
	cur->pgsig = sig;
	/* A seized tracee's group-stop is a PTRACE_EVENT_STOP. */
	cur->report = (cur->seized ? PTRACE_EVENT_STOP << 16 : 0) | sig << 8 | 0x7f;
	if (cur->seized)
		trap_info(PTRACE_EVENT_STOP << 8 | sig);
	stopped();
}

/* The siginfo of cur's stop for its tracer that is not a signal's (a
 * syscall or event stop, code: the stop's status >> 8), as
 * ptrace_do_notify fills it. */
static void trap_info(int code)
{
	/* (A seized group-stop's: the stop signal's number.) */
	siginfo_t si = { .si_signo = code >> 8 == PTRACE_EVENT_STOP ? code & 0x7f : SIGTRAP,
			 .si_code = code };
	char line[256];
	si.si_pid = self_id(cur->p.pid, cur->p.pid);
	const char *u = pt_status(cur->p.pid, "Uid:", line, sizeof line);
	si.si_uid = u ? strtoul(u, NULL, 10) : getuid();
	cur->psi = si;
	cur->ptinfo = 1;
}

/* cur stops at a call's entry or exit for PTRACE_SYSCALL. */
static void call_stop(int where)
{
	int code = cur->popts & PTRACE_O_TRACESYSGOOD ? SIGTRAP | 0x80 : SIGTRAP;
	cur->pcall = where;
	want_calls(cur, 0);
	cur->psig = 0;
	cur->pmsg = where == P_ENTRY ? 1 : 2;	/* PTRACE_EVENTMSG_SYSCALL_ENTRY, _EXIT */
	cur->report = code << 8 | 0x7f;
	trap_info(code);
	stopped();
}

/* cur stops at PTRACE_EVENT_ev with message msg, inside its call
 * (inside: rax shows -ENOSYS, as before the call's end). */
static void event_stop(int ev, uint64_t msg, int inside)
{
	int code = SIGTRAP | ev << 8;
	cur->psig = 0;
	cur->pcall = 0;
	cur->pinside = inside;
	cur->pmsg = msg;
	cur->report = code << 8 | 0x7f;
	trap_info(code);
	stopped();
}

/* The stops that come after an event stop of cur's call, one at a time:
 * PTRACE_EVENT_VFORK_DONE, the call's exit (if let go with
 * PTRACE_SYSCALL), an execve's SIGTRAP. */
static void after_stops(void)
{
	if (cur->pvfdone) {
		cur->pvfdone = 0;
		if (cur->tracer) {
			event_stop(PTRACE_EVENT_VFORK_DONE, cur->pmsg, 1);
			return;
		}
	}
	if (cur->pexit) {
		cur->pexit = 0;
		if (cur->tracer && cur->psys) {
			call_stop(P_EXIT);
			return;	/* a SIGTRAP comes after this one */
		}
	}
	if (cur->ptrap) {
		/* The SIGTRAP of an execve: it stops the tracee, or once
		 * detached is delivered (it kills by default). */
		siginfo_t si = exec_trap();
		cur->ptrap = 0;
		if (cur->tracer) {
			ptemu_signal_stop(SIGTRAP, 0, &si);
			return;	/* a step's SIGTRAP comes after this one */
		} else {
			record_signal(SIGTRAP, 0, &si);
			cur->sig = SIGTRAP;
		}
	}
	if (cur->pstepsys) {
		/* A single step into the call: the kernel's SIGTRAP at its
		 * end (send_sigtrap, TRAP_BRKPT, at the next instruction). */
		struct user_regs_struct r;
		cur->pstepsys = 0;
		if (cur->tracer && pt_getregs_alive(&cur->p, &r) == 0) {
			siginfo_t si = { .si_signo = SIGTRAP, .si_code = TRAP_BRKPT };
			si.si_addr = (void *)r.rip;
			ptemu_signal_stop(SIGTRAP, 0, &si);
		}
	}
}

int ptemu_entry_stop(void)
{
	int go = cur->pcall == P_GO;
	struct user_regs_struct r;
	if (go)
		cur->pcall = 0;
	if (!cur->tracer)
		return 0;
	if (!go && cur->psys) {
		call_stop(P_ENTRY);
		return 1;
	}
	if (!(cur->popts & PTRACE_O_TRACEEXIT) || cur->pexitev || pt_getregs_alive(&cur->p, &r) < 0 ||
	    (r.orig_rax != SYS_exit && r.orig_rax != SYS_exit_group))
		return 0;	/* (pexitev stays: its thread ends now) */
	/* PTRACE_EVENT_EXIT, before the thread ends: the other threads an
	 * exit_group ends would stop there too, which rec cannot make them
	 * do. */
	struct task *o;
	for (int i = 0; r.orig_rax == SYS_exit_group && (o = task_nth(i)); i++)
		if (o != cur && o->tgid == cur->tgid && o->tracer &&
		    (o->popts & PTRACE_O_TRACEEXIT))
			stop_recording(EXIT_TRACE, "the program made exit_group in a thread whose "
				       "sibling %d is traced with PTRACE_O_TRACEEXIT, which would "
				       "stop at PTRACE_EVENT_EXIT: rewind cannot make it stop there "
				       "yet; the trace %s ends before it", o->p.pid, rec_dir());
	cur->pexitev = 1;
	event_stop(PTRACE_EVENT_EXIT, (r.rdi & 0xff) << 8, 1);
	cur->pcall = P_ENTRY;	/* the call begins when let go */
	return 1;
}

void ptemu_exit_stop(long nr, int64_t ret, pid_t tid)
{
	int exec = sys_row(nr)->class == C_EXECVE && ret == 0;
	int ev = sys_row(nr)->class == C_CLONE && ret > 0 ? cur->pev : 0;
	cur->pev = 0;
	if (exec) {
		ptchld_exec();
		ptpatch_forget(cur->tgid);
	}
	if (!cur->tracer) {
		cur->pstepsys = 0;
		return;
	}
	int traceexec = exec && (cur->popts & PTRACE_O_TRACEEXEC);
	/* Without PTRACE_O_TRACEEXEC, a thread attached with PTRACE_ATTACH
	 * or TRACEME gets a SIGTRAP after its execve; with it, none. */
	cur->ptrap = exec && !cur->seized && !traceexec;
	cur->pexit = 1;
	cur->pvfdone = (clone_flags(cur) & CLONE_VFORK) && sys_row(nr)->class == C_CLONE &&
		       ret > 0 && (cur->popts & PTRACE_O_TRACEVFORKDONE);
	if (traceexec) {
		/* Its message: the id the thread had (another thread's exec
		 * gives it the leader's). */
		event_stop(PTRACE_EVENT_EXEC, tid == cur->p.pid ? self_id(tid, tid) : (uint32_t)tid, 1);
		return;
	}
	if (cur->pstop)
		return;	/* at its vfork event still: the rest when let go */
	if (ev) {
		event_stop(ev, ret, 1);
		if (cur->pvfdone)
			cur->pmsg = ret;	/* VFORK_DONE's message, the same */
		return;
	}
	if (cur->pvfdone)
		cur->pmsg = ret;
	after_stops();
}

void ptemu_clone(struct task *c)
{
	struct task *p = cur;
	uint64_t f = clone_flags(p), sig = f & CSIGNAL;
	c->pmsg = p->pmsg;	/* copied with the task */
	if (c->tgid != p->tgid)
		ptpatch_fork(p->tgid, c->tgid);
	p->pev = 0;
	if (!p->tracer || (f & CLONE_UNTRACED))
		return;
	if (p->nr == SYS_clone3)
		pt_read(&p->p, p->a[0] + 32, &sig, 8);	/* clone_args.exit_signal */
	int ev = f & CLONE_VFORK ? PTRACE_EVENT_VFORK :
		 sig != SIGCHLD ? PTRACE_EVENT_CLONE : PTRACE_EVENT_FORK;
	if (!(p->popts & (1 << ev)))
		ev = 0;
	if (!ev && !(f & CLONE_PTRACE))
		return;
	p->pev = ev == PTRACE_EVENT_VFORK ? 0 : ev;
	/* Its first stop (rec's SIGSTOP), so that its tracer finds it
	 * stopped when told. */
	pid_t tid = c->p.pid;
	while (find_task(tid) == c && c->fresh) {
		int st;
		if (wait_any(tid, &st, 0) <= 0)
			continue;
		cur = c;
		handle_other(st);
	}
	cur = p;
	if (find_task(tid) != c)
		return;	/* killed already */
	c->tracer = p->tracer;
	c->popts = p->popts;
	c->seized = p->seized;
	want_calls(c, 0);
	c->pcall = c->ptrap = c->pexit = c->pvfdone = c->pinside = 0;
	c->pgroup = c->psig = c->ptinfo = 0;
	c->pstop = 1;
	cur = c;
	if (c->seized) {
		/* A PTRACE_EVENT_STOP (the kernel's JOBCTL_TRAP_STOP). */
		c->report = ((PTRACE_EVENT_STOP << 8 | SIGTRAP) << 8) | 0x7f;
		trap_info(SIGTRAP | PTRACE_EVENT_STOP << 8);
		c->pmsg = 0;
		stopped();
	} else {
		/* The SIGSTOP the kernel queues it, from no one. */
		siginfo_t si = { .si_signo = SIGSTOP, .si_code = SI_USER };
		ptemu_signal_stop(SIGSTOP, 0, &si);
	}
	cur = p;
	if (ev == PTRACE_EVENT_VFORK) {
		/* The parent stops at its event now, inside the call that
		 * ends only when the child execs or ends (so not after). */
		int code = SIGTRAP | ev << 8;
		p->psig = p->pcall = 0;
		p->pinside = 1;
		p->pmsg = self_id(tid, tid);
		p->report = code << 8 | 0x7f;
		trap_info(code);
		p->pstop = 1;
		notify(p);
	}
}

/* t's tracer is gone: t goes on untraced, with the changes its tracer
 * made and the signal it stopped for. */
static void untrace(struct task *t)
{
	ptemu_record_dirty(t);
	ptpatch_check(t);
	if (t->popts & PTRACE_O_EXITKILL)
		syscall(SYS_tkill, t->p.pid, SIGKILL);
	t->pcall = t->pcall == P_ENTRY || t->pcall == P_GO ? P_GO : 0;
	want_calls(t, 0);
	t->popts = t->ptrap = t->pexit = t->pvfdone = t->pstepsys = t->pinside = t->ptinfo = 0;
	t->tracer = NULL;
	t->pstop = t->report = t->seized = 0;
	if (t->pgroup)
		t->state = T_STOPPED;	/* stays in the group-stop */
	t->pgroup = t->plisten = 0;
	if (t->psig && t->state == T_READY)
		t->sig = t->psig;	/* delivered after all */
	t->psig = 0;
}

void ptemu_tracer_gone(struct task *tr)
{
	struct task *t;
	ptchld_gone(tr);
	for (int i = 0; i < ndead; i++)
		if (dead[i].tr == tr)
			dead[i--] = dead[--ndead];
	for (int i = 0; (t = task_nth(i)); i++)
		if (t->tracer == tr)
			untrace(t);
}
