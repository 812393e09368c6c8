/* calls.c: a syscall's entry and exit: the call's record, its inputs and
 * outputs. */
#include "answer.h"
#include "bufdrain.h"
#include "bufredir.h"
#include "calls.h"
#include "cap.h"
#include "count.h"
#include "pos.h"
#include "emit.h"
#include "emu.h"
#include "events.h"
#include "exec.h"
#include "ignwait.h"
#include "mapped.h"
#include "memfile.h"
#include "own.h"
#include "pin.h"
#include "ptemu.h"
#include "rec.h"
#include "records.h"
#include "robust.h"
#include "sig.h"
#include "sys.h"
#include "task.h"
#include "tracedir.h"
#include "trapact.h"
#include "tsc.h"
#include "util.h"
#include "vsyscall.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/ptrace.h>
#include <unistd.h>

/* A vfork parent returns when its child's execve has replaced the
 * memory they shared, before that execve ends. Replay performs the
 * execve when it ends, so record that end first. */
static void vfork_child_exec(void)
{
	struct task *parent = cur;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		while (t->state == T_KERNEL && sys_row(t->nr)->class == C_EXECVE) {
			int st;
			pid_t tid = t->p.pid;
			wait_any(tid, &st, 0);
			cur = t;
			handle_other(st);
			if (!find_task(tid))
				break;
		}
	}
	cur = parent;
}

/* A write into the process's own memory through /proc/PID/mem is an
 * output of the call, which replay writes back; one into another
 * process's cannot be replayed. */
static void mem_written(long nr, const uint64_t a[6], int64_t ret)
{
	uint64_t addr = 0;
	long target = memfile_written(cur->p.pid, nr, a, ret, &addr);
	struct task *t = target > 0 ? find_task(target) : NULL;
	if (target > 0 && (target == cur->tgid || (t && t->tgid == cur->tgid)))
		save_mem(addr, addr + ret);
	else if (target > 0 && ptemu_poked(t, addr, ret))
		;	/* a tracee's: its state is recorded when it goes on */
	else if (target)
		stop_recording(EXIT_TRACE, "the program wrote through /proc/%ld/mem into memory "
			       "that is not its own (or at a place rec cannot tell); rewind "
			       "cannot record that yet; the trace %s ends before it",
			       target, R.dir);
}

/* Whether syscall nr with arguments a is a futex op that takes a PI
 * lock, blocking while another thread owns it. */
int pi_acquire(long nr, const uint64_t *a)
{
	int op = (int)(a[1] & 127);
	return nr == SYS_futex && (op == FUTEX_LOCK_PI || op == 13 /* FUTEX_LOCK_PI2 */ ||
				   op == FUTEX_WAIT_REQUEUE_PI);
}

/* The end of a clone-like call nr (arguments a) of cur that made a
 * thread (ret, the id the program sees): an IT_TASK item naming it, and
 * the pidfd the kernel wrote. */
static void clone_item(long nr, const uint64_t *a, int64_t ret)
{
	/* Said from the flags: a vfork child may be gone already. */
	/* In a pid namespace the program sees other ids than rec: the
	 * item names the thread as the records do (rec's view), and
	 * says which id the new thread sees for itself. */
	uint32_t child = cur->child ? (uint32_t)cur->child : (uint32_t)ret;
	/* A thread is in its caller's pid namespace (the kernel refuses
	 * one elsewhere), where ret names it. */
	int thread = (clone_flags(cur) & CLONE_THREAD) != 0;
	uint32_t ids[3] = { child, thread ? (uint32_t)cur->tgid : child,
			    thread ? (uint32_t)ret : self_id(child, ret) };
	tw_item(&R.w, IT_TASK, 0, ids, sizeof ids, NULL, 0);
	/* The pidfd the kernel wrote: replay's gets another number,
	 * having opened none of the program's files. */
	uint64_t pidfdp = 0;
	if (clone_flags(cur) & CLONE_PIDFD) {
		if (nr == SYS_clone)
			pidfdp = a[2];
		else if (nr == SYS_clone3)
			pt_read(&cur->p, a[0] + 8, &pidfdp, 8);
	}
	if (pidfdp)
		save_mem(pidfdp, pidfdp + 4);
}

static void __attribute__((noreturn)) cpuid_failed(struct task *t)
{
	stop_recording(EXIT_TRACE, "cannot make CPUID fault in thread %d, which left the CPU whose "
		       "CPUID answers the trace keeps (arch_prctl ARCH_SET_CPUID): %s; the trace %s "
		       "ends before it", t->p.pid, strerror(errno), R.dir);
}

void check_moved(struct task *t)
{
	if (!t->moved)
		return;
	t->moved = 0;
	if (tsc_check_cpu(&t->p) < 0)
		cpuid_failed(t);
}

/* Whether cur's process may be patched for counting now, as far as its
 * other threads go (count_call_end). Not while one runs its own code: it
 * may be inside a place being patched, and it counts edges that replay,
 * patching while that thread stands at its last record, counts too. Not
 * while one stopped (preempted) stands at an instruction that patching
 * moves into a trampoline: it would run the jump's bytes. */
static int others_clear(void)
{
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		struct user_regs_struct r;
		if (t == cur || t->tgid != cur->tgid || t->state == T_KERNEL || t->state == T_NEW)
			continue;
		if (t->state == T_RUN || pt_getregs_alive(&t->p, &r) < 0 ||
		    count_will_move(&cur->p, cur->tgid, r.rip))
			return 0;
	}
	return 1;
}

/* t's clone3 struct gets back the flags the program wrote (t->clone3_put),
 * in its child's copy too: once the kernel has read it, before either
 * runs its own code again. */
static void clone3_put_back(struct task *t)
{
	uint64_t f = t->clone3_put;
	if (!f)
		return;
	struct task *c = t->child ? find_task(t->child) : NULL;
	t->clone3_put = 0;
	pt_write(&t->p, t->a[0], &f, 8);
	if (c && !(f & CLONE_VM))
		pt_write(&c->p, t->a[0], &f, 8);
}

/* REWIND_STOP_IN_CALL=NAME, for tests: the race of a timeslice's end
 * with the entry of a call that blocks, made each time a thread enters
 * call NAME. rec's SIGSTOP, sent as it sat at the entry's stop,
 * interrupts the call once it is in (a sleep ends early, to be
 * restarted), and then preempts it where the call ended. */
static long stop_nr = -1;

void stop_in_call_setup(void)
{
	const char *s = getenv("REWIND_STOP_IN_CALL");
	if (s && *s && (stop_nr = sys_number(s)) < 0)
		die(EXIT_USAGE, "REWIND_STOP_IN_CALL: no system call named %s", s);
}

static void stop_in_call(long nr)
{
	int again = cur->stop_again;	/* the restart of a call it stopped */
	cur->stop_again = 0;
	if (nr != stop_nr || stop_nr < 0 || again)
		return;
	cur->stop_due = 1;
	syscall(SYS_tkill, cur->p.pid, SIGSTOP);
}

/* The end of the syscall cur is in: its result and outputs, as the rest
 * of its record (nothing came between) or as a TR_SYSRET. */
void syscall_exit(void)
{
	struct user_regs_struct regs;
	if (pt_getregs_alive(&cur->p, &regs) < 0)
		return;		/* killed from outside: task_gone() ends the call */
	const struct sys_entry *e = sys_row(cur->nr);
	long nr = cur->nr;
	uint64_t *a = cur->a;
	int64_t ret = regs.rax;
	if (nr == SYS_rt_sigreturn && count_on())	/* its frame is below its stack now */
		pos_scrub_frame(&cur->p, cur->entry_regs.rsp, regs.rsp);
	if (cur->kicked) {
		cur->kicked = 0;
		if (cap_is_restart(ret) && nr == SYS_wait4 && ptemu_wait(a, &ret) == 1) {
			regs.rax = ret;
			pt_setregs(&cur->p, &regs);
		}
	}
	if (ignwait_own_stop(nr, a, ret)) {
		ret = -514;	/* ERESTARTNOHAND */
		regs.rax = (uint64_t)ret;
		pt_setregs(&cur->p, &regs);
	}
	cur->stop_again = stop_nr >= 0 && cap_is_restart(ret);
	const char *why = cap_unknown(&cur->p, e, a, ret);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s (%s), whose outputs rewind cannot "
			       "record yet; the trace %s ends before it", e->name, why, R.dir);
	if (nr == SYS_prctl || nr == SYS_seccomp || nr == SYS_arch_prctl)
		ret = own_settings(&regs);
	clone3_put_back(cur);	/* a clone3 that made no child */
	if ((clone_flags(cur) & CLONE_VFORK) && e->class == C_CLONE)
		vfork_child_exec();
	/* A whole call goes where it began; an end goes after every call
	 * that began before it. So does a PI lock's taking, which the
	 * owner's later FUTEX_UNLOCK_PI may have handed over: the owner's
	 * unlock checks that the word names it still (a robust one), so
	 * the word must name the new owner only after that call's entry. */
	flush_entries(cur->open && !pi_acquire(nr, a) ? cur->seq : UINT64_MAX);
	/* The end of an execve that made a thread the leader is the end of
	 * the call its old id began. */
	pid_t tid = cur->exec_tid ? cur->exec_tid : cur->p.pid;
	cur->exec_tid = 0;
	if (cur->open) {
		tw_begin(&R.w, TR_SYSCALL, cur->atentry, R.event++, tid);
		memcpy(cur->stage.buf + 56, &ret, 8);
		tw_put(&R.w, cur->stage.buf, cur->stage.len);
		cur->open = 0;
	} else {
		tw_begin(&R.w, TR_SYSRET, 0, R.event++, tid);
		tw_put32(&R.w, (uint32_t)nr);
		tw_put32(&R.w, 0);
		tw_put64(&R.w, ret);
	}
	pin_after(&cur->p, nr, a, ret);	/* before the outputs are saved */
	pid_t moved;
	if (tsc_left_cpu(&cur->p, nr, a, ret, &moved) < 0)
		cpuid_failed(cur);
	struct task *mt = moved ? find_task(moved) : NULL;
	if (mt)
		mt->moved = 1;
	check_moved(cur);	/* moved while in this call */
	cap_outputs(&cur->p, e, a, ret, item_mem, NULL);
	if (cur->vdso_slot && (e->class == C_EMU || e->class == C_EXEC || e->class == C_MMAP))
		vdso_show();
	for (int i = 0; i < cur->nemu_out; i++)	/* what an emulated call wrote */
		save_mem(cur->emu_out[i][0], cur->emu_out[i][0] + cur->emu_out[i][1]);
	if (e->class == C_CLONE && ret > 0)
		clone_item(nr, a, ret);
	emit_writes(nr, a, ret, cur->out);
	memfile_opened(cur->p.pid, nr, ret);
	mem_written(nr, a, ret);
	if (e->class == C_EXECVE && ret == 0) {
		cur->own.nodump = 0;	/* exec makes it dumpable again */
		trapact_exec();
		record_exec(&regs);
		record_forget(cur->tgid);
	}
	if ((nr == SYS_set_robust_list && ret == 0) || (e->class == C_EXECVE && ret == 0))
		cur->robust = nr == SYS_set_robust_list ? a[0] : 0;
	if (nr == SYS_shmat && ret >= 0)
		shm_attached(ret, !(a[2] & SHM_RDONLY));
	else if (e->class == C_MMAP && ret >= 0 && !(a[3] & MAP_ANONYMOUS))
		file_mapped(a);
	if (nr == SYS_madvise && (a[2] == MADV_DONTNEED || a[2] == 24))	/* 24: _LOCKED */
		file_pages(a[0], a[0] + a[1], ret < 0);	/* a failure may come after a part */
	else if (ret >= 0 && nr == SYS_mremap && a[2] > a[1])
		file_pages(ret, ret + a[2], 0);
	char emu_why[4600];
	if (emu_patch(&R.w, &cur->p, nr, a, ret, emu_why, sizeof emu_why) < 0)
		stop_recording(EXIT_TRACE, "%s", emu_why);
	int busy = 0;
	for (int i = 0; i < R.ntasks; i++)
		busy |= R.tasks[i] != cur && R.tasks[i]->state == T_KERNEL && emu_changes(R.tasks[i]->nr);
	int k = emu_outside(&R.w, busy, emu_why, sizeof emu_why);
	if (k < 0)
		stop_recording(EXIT_TRACE, "%s", emu_why);
	if (k > 0)
		warnx_("%s", emu_why);
	if (nr == SYS_fanotify_init && ret >= 0 && (a[0] & 0xc))	/* a permission class */
		for (int i = 0; i < R.ntasks; i++)
			buf_stop(&R.tasks[i]->p);
	char fdpath[64];
	snprintf(fdpath, sizeof fdpath, "/proc/%d/fd/%d", cur->p.pid, (int)a[4]);
	tsc_syscall(&cur->p, cur->tgid, nr, a, ret, fdpath);
	count_syscall(&cur->p, cur->tgid, nr, a, ret, fdpath);
	if (count_call_end(&cur->p, cur->tgid, cur->p.pid, nr, a, ret,
			   e->class == C_CLONE && ret > 0 && (clone_flags(cur) & CLONE_THREAD),
			   others_clear)) {
		uint32_t one = 1;
		tw_item(&R.w, IT_PATCHED, 0, &one, 4, NULL, 0);
	}
	if (buf_readies(nr, a, ret))	/* a live buffer from here on */
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i]->tgid == cur->tgid)
				R.tasks[i]->p.nobuf = 0;
	buf_after(&cur->p, cur->tgid, nr, a, ret);
	tw_end(&R.w);
	ready(cur);
	cur->at_exit = 1;
	cur->exit_regs = regs;
	/* The signals pending at the exit are read where it goes on from
	 * it (exit_pend_now): while it stays stopped they only grow. */
	cur->exit_pend[0] = cur->exit_pend[1] = 0;
	ignwait_exit();
	ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof cur->mask, &cur->mask);
	ptemu_exit_stop(nr, ret, tid);
}

/* Why the call nr of cur (registers r, at its entry) cannot be recorded,
 * or NULL: the 32-bit entries, and requests whose outputs the table
 * cannot say (cap_refusal). */
static const char *refusal(long nr, const struct user_regs_struct *r)
{
	static char why[160];
	uint16_t insn = 0;
	uint64_t a[6];
	if (vsyscall_at(r->rip)) {
		/* The kernel emulates the call and returns to the caller
		 * with no syscall-exit stop: rec makes the page's calls
		 * itself (vsyscall.h), and would never see another's end. */
		if (vsyscall_has(nr))
			return NULL;
		snprintf(why, sizeof why, "a call through the legacy vsyscall page (%s at 0x%llx)",
			 sys_row(nr)->name, (unsigned long long)r->rip);
		return why;
	}
	/* A syscall instruction in 64-bit code leaves its return address in
	 * rcx and the flags in r11, as the kernel shows them: no need to read
	 * it (int $0x80 and sysenter leave the program's own there, which
	 * match both only if the program set them so on purpose). */
	if (r->cs != 0x33 || r->rcx != r->rip || r->r11 != r->eflags)
		pt_read(&cur->p, r->rip - 2, &insn, 2);
	if (insn == 0x80cd || insn == 0x340f) {
		snprintf(why, sizeof why, "a 32-bit syscall (%s, number %ld)",
			 insn == 0x80cd ? "int $0x80" : "sysenter", nr);
		return why;
	}
	pt_args(r, a);
	if ((nr == SYS_sendmmsg || nr == SYS_vmsplice) && out_kind(a[0])) {
		snprintf(why, sizeof why, "%s to %s", nr == SYS_vmsplice ? "vmsplice" : "sendmmsg",
			 out_kind(a[0]) == 1 ? "stdout" : "stderr");
		return why;
	}
	/* To no process: ESRCH, and nothing written. */
	if (nr == SYS_process_vm_writev && !in_tree(a[0]) && !pt_no_process((pid_t)a[0])) {
		snprintf(why, sizeof why, "process_vm_writev into process %d (outside the "
			 "recording)", (int)a[0]);
		return why;
	}
	const char *c = cap_refusal(sys_row(nr), a);
	if (!c)
		return NULL;
	snprintf(why, sizeof why, "%s", c);
	return why;
}

void syscall_at_entry(const struct user_regs_struct *r)
{
	uint64_t a[6];
	pt_args(r, a);
	if (!pt_untraced_call((int32_t)r->orig_rax, a)) {
		pt_resume(&cur->p, RESUME_FILTER, 0);	/* on to the filter's stop */
		return;
	}
	R.run_tid = 0;
	R.seg_ticks = 0;
	cur->atentry = TRF_ATENTRY;
	cur->p.at_entry = 1;
	syscall_entry();
}

/* cur's staged record, whole at its entry (its result sure there): it
 * goes into the trace, and cur runs on with no stop at the call's end. */
static void whole_at_entry(void)
{
	begin(TR_SYSCALL, 0);
	tw_put(&R.w, cur->stage.buf, cur->stage.len);
	tw_end(&R.w);
	R.run_tid = cur->p.pid;	/* it runs on: no other may */
	pt_resume(&cur->p, RESUME_CONT, 0);
}

/* cur, at the entry stop r of a call through the vsyscall page, its
 * record staged: rec makes the call (vsyscall.h), stages what it wrote,
 * and the kernel skips it; cur runs on from its caller. */
static void vsyscall_whole(struct user_regs_struct *r)
{
	int64_t ret = vsyscall_make(&cur->p, cur->nr, cur->a, item_mem, &cur->stage);
	memcpy(cur->stage.buf + 56, &ret, 8);
	r->orig_rax = -1;
	r->rax = ret;
	pt_setregs(&cur->p, r);
	whole_at_entry();
}

/* cur enters umount2: rec's own descriptor of a file there that the
 * program mapped shared would make it fail (EBUSY), unless no process
 * maps the file any more (emu.h). */
static void before_umount(void)
{
	pid_t pids[256];
	int n = 0;
	for (int i = 0; i < R.ntasks && n < 256; i++) {
		int k = 0;
		while (k < n && find_task(pids[k])->tgid != R.tasks[i]->tgid)
			k++;
		if (k == n)
			pids[n++] = R.tasks[i]->p.pid;	/* one thread a process: its maps */
	}
	emu_forget_unmapped(pids, n);
}

/* cur's run of user code ends there. Stage the record, and let the
 * kernel run the call while another thread runs. */
void syscall_entry(void)
{
	if (ptemu_entry_stop())
		return;
	struct user_regs_struct regs;
	if (pt_getregs_alive(&cur->p, &regs) < 0)
		return;		/* killed from outside since handle() looked */
	long nr = (int32_t)regs.orig_rax;	/* all the kernel reads of it */
	if (regs.rsp >= cur->sig_top)
		cur->sig_top = 0;	/* back where the handled signal came, or above */
	const struct sys_entry *e = sys_row(nr);
	if (e->class == C_UNSUP)
		stop_recording(EXIT_TRACE, "the program made syscall %s (%ld), which rewind "
			       "cannot record yet; the trace %s ends before it", e->name, nr, R.dir);
	const char *why = refusal(nr, &regs);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s, which rewind cannot record yet; "
			       "the trace %s ends before it", why, R.dir);
	uint64_t args[6];
	pt_args(&regs, args);
	long answer = sys_lookup(nr) ? answer_entry(cur->p.pid, cur->tgid, nr, args) : -ENOSYS;
	if (answer) {
		/* No such call (or x32's): ENOSYS, as from a kernel without
		 * it; and the few calls rec answers the same way. */
		regs.orig_rax = -1;
		regs.rax = answer;
		pt_setregs(&cur->p, &regs);
	}
	int killed = seccomp_strict(nr, &regs);
	cur->nr = nr;
	pt_args(&regs, cur->a);
	own_entry(nr, &regs);
	struct trace_writer *s = &cur->stage;
	s->len = 0;
	tw_put32(s, (uint32_t)nr);
	tw_put32(s, 0);
	tw_put(s, cur->a, sizeof cur->a);
	tw_put64(s, 0);		/* ret, filled in at the end */
	cap_inputs(&cur->p, e, cur->a, item_arg, s);
	/* Where the thread's counted code made it: the count, which bounds
	 * how far replay lets the thread run looking for it. (An advance's
	 * arming was dropped at this stop: handle().) */
	uint64_t count;
	if (count_get(&cur->p, cur->tgid, cur->p.pid, &count) == 0)
		tw_item(s, IT_COUNT, 0, &count, 8, NULL, 0);
	if (nr == SYS_kill || nr == SYS_tkill || nr == SYS_tgkill || nr == SYS_pidfd_send_signal)
		kill_robust_marks(nr, cur->a, s);
	if (vsyscall_at(regs.rip)) {
		vsyscall_whole(&regs);
		return;
	}
	cur->at_exit = 0;
	cur->held_blocked = 0;
	cur->entry_regs = regs;
	cur->nemu_out = 0;
	cur->child = 0;
	if (e->class == C_CLONE && (clone_flags(cur) & CLONE_UNTRACED)) {
		/* A child that escapes rec would run unrecorded and every
		 * syscall of it would fail (the filter's RET_TRACE with no
		 * tracer); traced like any other, it is recorded. Replay
		 * strips the flag the same way: clone3's in its struct, put
		 * back at the call's end in both copies of it. */
		uint64_t f = clone_flags(cur), g = f & ~(uint64_t)CLONE_UNTRACED;
		if (nr == SYS_clone3 && pt_write(&cur->p, cur->a[0], &g, 8) == 0) {
			cur->clone3_put = f;
		} else if (nr == SYS_clone) {
			regs.rdi = g;
			pt_setregs(&cur->p, &regs);
		} else {
			stop_recording(EXIT_TRACE, "the program called %s with CLONE_UNTRACED, which "
				       "rewind cannot record yet; the trace %s ends before it",
				       e->name, R.dir);
		}
	}
	trapact_entry(nr, cur->a);
	ignwait_entry(nr, cur->a);
	pin_before(&cur->p, nr, cur->a);
	if (nr == SYS_umount2)
		before_umount();
	int parked = ptemu_call(&regs) == 2;
	if (e->class == C_EXIT || killed) {
		cur->out = 0;	/* a write before it is over */
		begin(TR_SYSCALL, TRF_NORETURN);
		tw_put(&R.w, s->buf, s->len);
		if (e->class == C_EXIT)
			exit_robust_marks(nr);
		tw_end(&R.w);
		cur->state = T_KERNEL;
		pt_resume(&cur->p, RESUME_CONT, 0);
		return;
	}
	/* One whose end is sure is recorded whole now, and runs on without
	 * a stop at its end: not with a signal held (raised at a call's
	 * end), a tracer in the tree watching it, or --chaos (which may give
	 * way at every call's end). Replay lets it end the same way where
	 * nothing looks at the thread before its next event. */
	if (!parked && !killed && !cur->nstash && !cur->injected && !cur->tracer && !cur->psys &&
	    !R.chaos && cap_sure_sigaction(&cur->p, nr, cur->a)) {
		whole_at_entry();
		return;
	}
	/* Raise one held signal now: it is delivered when this call ends
	 * (or interrupts it if it blocks, as it would have natively), at a
	 * syscall boundary, where replay can raise it again. */
	if (cur->nstash && !cur->injected) {
		cur->injected = cur->stash[0].si_signo;
		syscall(SYS_tgkill, cur->tgid, cur->p.pid, cur->injected);
	}
	cur->open = 1;
	cur->seq = R.seq++;
	cur->state = T_KERNEL;
	cur->out = out_call(nr, cur->a);
	if (parked) {
		cur->pwait = 1;
		return;
	}
	stop_in_call(nr);
	pt_resume(&cur->p, RESUME_SYSCALL, 0);
	if (e->class == C_CLONE) {
		/* The new thread exists at once: take its id now, so that
		 * the entry names it even when its end comes much later (a
		 * vfork parent waits for its child). */
		int st;
		wait_any(cur->p.pid, &st, 0);
		handle_other(st);
		clone3_put_back(cur);	/* before the child runs */
	}
}
