/* inject.c: calls injected into stopped threads of the replay, and what is
 * built on them: forking a process (eng_fork), making a thread in it, and
 * putting a thread back into its call. Knows nothing of the engine. */
#include "inject.h"
#include "maps.h"
#include "util.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Wait for pid's next stop. */
static int wait_pid(pid_t pid, int *st)
{
	while (waitpid(pid, st, __WALL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int eng_inject(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
	       const uint64_t a[6], uint64_t *ret, pid_t *child)
{
	static const uint8_t insn[2] = { 0x0f, 0x05 };
	uint8_t save[2];
	int wrote = 0, ok = 0;
	maps_drop();	/* the call may change the mappings */
	if (pt_read(p, at, save, 2) != 2)
		return -1;
	if (memcmp(save, insn, 2)) {
		if (pt_write(p, at, insn, 2) < 0)
			return -1;
		wrote = 1;
	}
	struct user_regs_struct inj = *r;
	inj.rip = at;
	inj.orig_rax = -1;	/* no syscall restart, and a pending call is skipped */
	inj.rax = nr;
	pt_set_args(&inj, a);
	pt_setregs(p, &inj);
	if (child)
		*child = -1;
	/* Stopped at a call's entry, the skipped call (-1) still meets the
	 * filter, which stops it: passed over first. */
	int st, passed = 1;
	if (p->at_entry) {
		pt_resume(p, RESUME_FILTER, 0);
		passed = wait_pid(p->pid, &st) == 0 && pt_classify(st) == PS_SECCOMP;
	}
	/* The filter traces the call: a seccomp stop, then (clone) the
	 * clone event, then the syscall-exit stop. One it lets through
	 * (pt_untraced_call) stops at its entry instead of the seccomp stop. */
	int entry = pt_untraced_call(nr, a), how = entry ? RESUME_SYSCALL : RESUME_FILTER;
	for (int i = 0; passed && i < 3; i++) {
		pt_resume(p, how, 0);
		if (wait_pid(p->pid, &st) < 0 || !WIFSTOPPED(st))
			break;
		int k = pt_classify(st);
		if (k == PS_SIGNAL)
			break;	/* not our call: give up, the caller goes on without */
		if (child && (st >> 8) == (SIGTRAP | (PTRACE_EVENT_CLONE << 8))) {
			unsigned long msg;
			ptrace(PTRACE_GETEVENTMSG, p->pid, 0, &msg);
			*child = msg;
		}
		if (k == PS_SYSEXIT && entry) {
			entry = 0;
			continue;	/* its entry: how stays RESUME_SYSCALL */
		}
		if (k == PS_SYSEXIT) {
			struct user_regs_struct o;
			pt_getregs(p, &o);
			*ret = o.rax;
			ok = 1;
			break;
		}
		how = RESUME_SYSCALL;
	}
	if (wrote)
		pt_write(p, at, save, 2);
	pt_setregs(p, r);
	return ok ? 0 : -1;
}

int eng_inject_quiet(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
		     const uint64_t a[6], uint64_t *ret)
{
	uint64_t mask, all = ~0ull;
	int k = -1, stopped = 0;
	int masked = ptrace(PTRACE_GETSIGMASK, p->pid, sizeof mask, &mask) == 0 &&
		     ptrace(PTRACE_SETSIGMASK, p->pid, sizeof all, &all) == 0;
	for (int i = 0; i < 4 && (k = eng_inject(p, r, at, nr, a, ret, NULL)) < 0; i++) {
		siginfo_t si;
		if (ptrace(PTRACE_GETSIGINFO, p->pid, 0, &si) < 0 || si.si_signo != SIGSTOP)
			break;
		stopped = 1;
	}
	if (masked)
		ptrace(PTRACE_SETSIGMASK, p->pid, sizeof mask, &mask);
	if (stopped)
		syscall(SYS_tkill, p->pid, SIGSTOP);
	return k;
}

int inject_sigaction(struct pt_proc *p, const struct user_regs_struct *r, int sig,
		     const uint64_t act[4])
{
	uint64_t at = (r->rsp - 128 - 64) & ~15ull, old[4], ret = -1;
	uint64_t a[6] = { (uint64_t)sig, at, 0, 8, 0, 0 };
	if (pt_read(p, at, old, sizeof old) != sizeof old || pt_write(p, at, act, sizeof old) < 0)
		return -1;
	int k = eng_inject_quiet(p, r, r->rip, SYS_rt_sigaction, a, &ret);
	pt_write(p, at, old, sizeof old);
	return k < 0 || ret ? -1 : 0;
}

/* Make the stopped process p (registers r) clone itself with no exit
 * signal, through a syscall instruction written over the one at r->rip;
 * both come back with memory and registers as they were. The child stays
 * stopped (SIGSTOP). Returns its pid or -1. */
static pid_t inject_clone(struct pt_proc *p, const struct user_regs_struct *r)
{
	uint8_t save[2];
	if (pt_read(p, r->rip, save, 2) != 2)
		return -1;
	static const uint64_t a[6];
	uint64_t ret;
	pid_t child = -1;
	int st;
	eng_inject(p, r, r->rip, SYS_clone, a, &ret, &child);
	if (child < 0 || wait_pid(child, &st) < 0) {
		if (child > 0)
			kill(child, SIGKILL);
		return -1;
	}
	/* The child was copied with the syscall instruction in place. */
	struct pt_proc c = { .pid = child, .memfd = -1 };
	pt_reopen_mem(&c);
	pt_write(&c, r->rip, save, 2);
	close(c.memfd);
	ptrace(PTRACE_SETOPTIONS, child, 0, PT_OPTIONS);
	pt_setregs(&c, r);
	return child;
}

/* Put thread p (registers r, as at the seccomp stop of a call it had
 * entered) back at that stop: run its syscall instruction again. The
 * filter stops it there as before; the call has not run. */
int eng_reenter(struct pt_proc *p, const struct user_regs_struct *r)
{
	uint8_t insn[2];
	struct user_regs_struct w = *r;
	int st;
	if (pt_read(p, r->rip - 2, insn, 2) != 2 || insn[0] != 0x0f || insn[1] != 0x05)
		return -1;
	w.rip -= 2;
	w.rax = r->orig_rax;
	pt_setregs(p, &w);
	/* One the filter lets through stops at its entry (pt_proc's at_entry). */
	uint64_t a[6];
	pt_args(r, a);
	int entry = pt_untraced_call((long)r->orig_rax, a);
	pt_resume(p, entry ? RESUME_SYSCALL : RESUME_FILTER, 0);
	if (wait_pid(p->pid, &st) < 0 || pt_classify(st) != (entry ? PS_SYSEXIT : PS_SECCOMP))
		return -1;
	p->at_entry = entry;
	pt_getregs(p, &w);
	if (w.orig_rax != r->orig_rax)
		return -1;
	pt_setregs(p, r);
	return 0;
}

int eng_thread_state(struct pt_proc *p, struct eng_snap_thread *th)
{
	if (ptrace(PTRACE_GETREGS, p->pid, 0, &th->regs) < 0)
		return -1;
	th->xs = xrealloc(th->xs, 65536);
	ssize_t xl = pt_getxstate(p, th->xs, 65536);
	if (xl <= 0 || ptrace(PTRACE_GETSIGMASK, p->pid, 8, &th->mask) < 0)
		return -1;
	th->xs = xrealloc(th->xs, xl);	/* a few KiB of the 64 asked for */
	th->xlen = xl;
	return 0;
}

pid_t eng_clone_thread(struct pt_proc *p, uint64_t ctid)
{
	struct user_regs_struct r;
	pt_getregs(p, &r);
	uint64_t a[6] = { CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
				  CLONE_SYSVSEM | (ctid ? CLONE_CHILD_CLEARTID : 0),
			  0, 0, ctid, 0, 0 };
	uint64_t ret;
	pid_t child = -1;
	int st;
	if (eng_inject(p, &r, r.rip, SYS_clone, a, &ret, &child) < 0 || child < 0 ||
	    wait_pid(child, &st) < 0)
		return -1;
	return child;
}

pid_t eng_fork(struct pt_proc *p, const struct user_regs_struct *r)
{
	return inject_clone(p, r);
}
