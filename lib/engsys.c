/* engsys.c: one syscall replayed: its arguments checked, then answered
 * from the trace or performed; the irregular calls are one quirk
 * function each, dispatched from the quirk column of sys_table.h. */
#include "engint.h"
#include "bufredir.h"
#include "cap.h"
#include "count.h"
#include "pos.h"
#include "maps.h"
#include "sys.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

struct argcheck {
	struct engine *e;
	const struct trace_rec *rec;
	size_t off;
	const struct sys_entry *s;
};

/* Compare one live input argument with the next IT_ARG of the record:
 * the bytes the kernel reads (a sockaddr up to its family's length, a
 * string up to its NUL, a buffer's saved prefix), not the ones around. */
static void check_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len)
{
	struct argcheck *c = ctx;
	const char *name = c->s->name;
	const uint8_t *now = data;
	struct trace_item it;
	int k;
	while ((k = trace_item(c->rec, &c->off, &it)) > 0 && it.tag != IT_ARG)
		;
	if (k <= 0 || it.flags != arg || it.len < 8)
		eng_diverge(c->e, "%s: argument %d was not recorded", name, arg + 1);
	const uint8_t *was = it.p + 8;
	size_t wlen = it.len - 8;
	if (get64(it.p) != full)
		eng_diverge(c->e, "%s: argument %d is %llu bytes long, the trace has %llu", name, arg + 1,
			(unsigned long long)full, (unsigned long long)get64(it.p));
	if (sys_kind(c->s->arg[arg]) == A_SOCKADDR_IN) {
		/* Lengths are equal (full): the recorded address's own length
		 * bounds both. */
		size_t m = cap_sockaddr_len(was, wlen, full);
		wlen = m;
		len = len < m ? len : m;
	}
	size_t i = 0, n = wlen < len ? wlen : len;
	while (i < n && was[i] == now[i])
		i++;
	if (i == n && wlen == len)
		return;
	/* Where one ends: a string saved shorter has its NUL there. */
	int str = sys_kind(c->s->arg[arg]) == A_STR;
	char wb[8], nb[8];
	snprintf(wb, sizeof wb, i < wlen || str ? "0x%02x" : "the end", i < wlen ? was[i] : 0);
	snprintf(nb, sizeof nb, i < len || str ? "0x%02x" : "the end", i < len ? now[i] : 0);
	eng_diverge(c->e, "%s: argument %d differs at byte %zu: %s in the trace, %s now", name, arg + 1, i,
		wb, nb);
}

/* Whether the trace holds all the kernel reads at, or writes to, an
 * argument of kind k, written by cap_outputs at the pointer itself. */
static int data_recorded(int k)
{
	return k == A_STR || k == A_IBUF || k == A_SOCKADDR_IN || k == A_OBUF || k == A_OUT ||
	       k == A_SOCKADDR_OUT || k == A_OARR || k == A_EPEV_OUT;
}

/* The registers sys_enter read at the call's seccomp stop, for
 * finish_call when it comes straight after (a whole record: the thread
 * stayed stopped, nothing wrote them), so that they are read once. */
static struct {
	int ok;
	pid_t pid;
	struct user_regs_struct r;
} entered;

/* The entry of the current thread's syscall e->cur, which its stop k
 * begins: it must be the recorded call with the recorded arguments. */
static const struct sys_entry *sys_enter(struct engine *e, int k, struct trace_syscall *sc)
{
	if (trace_syscall(&e->cur, sc) < 0)
		eng_bad_record(e, "short syscall record");
	const struct sys_entry *s = sys_row(sc->nr);
	if (!e->started) {
		/* Before the first execve there is no thread to run a call
		 * whose end comes later. */
		if (s->class != C_EXECVE || (e->cur.flags & TRF_ENTRY))
			eng_bad_record(e, "the trace does not start with execve");
		return s;
	}
	char want[64];
	snprintf(want, sizeof want, "syscall %s", eng_sysname(sc->nr));
	eng_expect(e, k, PS_SECCOMP, want);
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	entered.ok = !(e->cur.flags & TRF_ENTRY);
	entered.pid = e->p.pid;
	entered.r = r;
	if ((int32_t)r.orig_rax != sc->nr) {
		const char *got = eng_sysname((int32_t)r.orig_rax);
		eng_diverge(e, "expected syscall %s, got syscall %s", want + 8, got);
	}
	uint64_t a[6];
	pt_args(&r, a);
	eng_moved.ev = e->cur.event;
	eng_moved.n = 0;
	for (int i = 0; i < s->nargs; i++) {
		if (a[i] == sc->args[i])
			continue;
		/* A pointer whose data the trace holds may point elsewhere:
		 * the inputs are compared below, the outputs written there.
		 * Not across an entry and a later end (TRF_ENTRY). */
		if (a[i] && sc->args[i] && !(e->cur.flags & TRF_ENTRY) &&
		    data_recorded(sys_kind(s->arg[i]))) {
			eng_moved.from[eng_moved.n] = sc->args[i];
			eng_moved.to[eng_moved.n++] = a[i];
			sc->args[i] = a[i];
			continue;
		}
		eng_diverge(e, "%s: argument %d is 0x%llx, the trace has 0x%llx", s->name, i + 1,
			(unsigned long long)a[i], (unsigned long long)sc->args[i]);
	}
	struct argcheck ac = { e, &e->cur, trace_fixed_size(TR_SYSCALL), s };
	cap_inputs(&e->p, s, a, check_arg, &ac);
	return s;
}

/* The signal mask a call of quirk Q_SIGMASK installs while it waits
 * (ppoll, pselect6, epoll_pwait, epoll_pwait2), or 0. */
static uint64_t call_mask(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t ss = 0;
	switch (sc->nr) {
	case SYS_ppoll:
		return sc->args[3];
	case SYS_epoll_pwait:
	case SYS_epoll_pwait2:
		return sc->args[4];
	case SYS_pselect6:	/* a pointer to { sigset_t *ss; size_t len } */
		if (sc->args[5] && pt_read(&e->p, sc->args[5], &ss, 8) != 8)
			ss = 0;
		return ss;
	}
	return 0;
}

/* A call with a signal mask was interrupted by a signal its mask let in:
 * rt_sigsuspend with that mask, the recorded signal made pending, does
 * the kernel's mask juggling (the handler runs under the call's mask, the
 * old one comes back after it). Then the thread looks as the call left
 * it (r), with its result. Returns 0, having done nothing, when no
 * signal of the thread comes next. */
static int suspend_in(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
		      uint64_t mask)
{
	int sig = eng_next_signal_of(e, e->cur.tid);
	if (!sig)
		return 0;	/* none came: nothing to let in */
	syscall(SYS_tkill, e->p.pid, sig);
	e->raised = 1;
	struct user_regs_struct w = *r;
	w.orig_rax = SYS_rt_sigsuspend;
	w.rdi = mask;
	w.rsi = 8;
	pt_setregs(&e->p, &w);
	eng_run_call(e, &w);
	r->orig_rax = sc->nr;
	r->rax = sc->ret;
	pt_setregs(&e->p, r);
	return 1;
}

/* The current thread (not the first of its process) was resumed to end
 * (exit): wait until it has ended, as rec did, since the kernel clears
 * its id for a join (CLONE_CHILD_CLEARTID) as it goes, and no other
 * thread may look before. Its end is left to be reaped at its
 * TR_TASKEXIT (WNOWAIT); a stop on the way out is passed. */
static void reap_exit(struct engine *e)
{
	for (;;) {
		siginfo_t si = { 0 };
		if (waitid(P_PID, e->p.pid, &si, WEXITED | WSTOPPED | WNOWAIT | __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			return;
		int st;
		if (waitpid(e->p.pid, &st, __WALL) < 0)
			return;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			/* Reaped after all (it ended in between): its
			 * TR_TASKEXIT checks the status. */
			cur_task(e)->status = st;
			cur_task(e)->doomed = 2;
			return;
		}
		pt_resume(&e->p, RESUME_CONT, 0);	/* no stop is replayed there */
	}
}

/* Whether call sc sets the calling process's RLIMIT_STACK, RLIMIT_DATA
 * or RLIMIT_AS, which shape its address space. */
static int space_limit(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t res = sc->nr == SYS_setrlimit ? sc->args[0] : sc->args[1];
	if (res != RLIMIT_STACK && res != RLIMIT_DATA && res != RLIMIT_AS)
		return 0;
	return sc->nr == SYS_setrlimit ||
	       (sc->nr == SYS_prlimit64 && sc->args[2] &&
		(sc->args[0] == 0 || sc->args[0] == cur_task(e)->rtgid));
}

/* A call being finished: its row and record, the class it is replayed
 * as, its registers (r as given to the kernel, r0 as the program passed
 * them) and its arguments (a, as in r). */
struct call {
	const struct sys_entry *s;
	const struct trace_syscall *sc;
	int cls;
	int noerr;		/* a negative result is no failure */
	uint64_t mask;		/* the signal mask it waits under, or 0 */
	struct user_regs_struct r, r0;
	uint64_t a[6];
	int same;		/* an mmap made as an mprotect (eng_map_same) */
	int direct;		/* an mmap made on the file's copy (eng_map_direct) */
	struct map_direct d;
};

/* The points of sys_finish() at which it asks the quirk function of an
 * irregular call (column "quirk" of sys_table.h). */
enum {
	QP_CLASS,	/* before anything: may change c->cls (or c->noerr) */
	QP_PERFORM,	/* about to be performed, not answered: may change
			   the arguments; returns 1 when it did the call itself */
	QP_DONE,	/* performed, its result checked */
	QP_ANSWER,	/* answered as interrupted: may set c->mask */
};

/* Q_PRCTL: its own filter, as seccomp(), or syscall user dispatch
 * (PR_SET_SYSCALL_USER_DISPATCH): the SIGSYS they raise must come again.
 * PR_SET_MM's fields of the address space (brk, the stack's and
 * arguments' bounds, auxv) too: replay's is laid out the same. */
static int q_prctl(struct engine *e, struct call *c, int phase)
{
	const uint64_t *a = c->sc->args;
	(void)e;
	uint32_t op = (uint32_t)a[0];	/* an int to the kernel */
	if (phase == QP_CLASS && ((op == PR_SET_SECCOMP && a[1] == 2) || op == 59 ||
				  (op == PR_SET_MM && a[1] >= 1 && a[1] <= 12)))
		c->cls = C_EXEC;
	return 0;
}

/* Q_ARCHPRCTL: ARCH_GET_CPUID says whether CPUID faults, which rewind
 * may make it do in rec or replay alone: rec answered for the program. */
static int q_archprctl(struct engine *e, struct call *c, int phase)
{
	(void)e;
	if (phase == QP_CLASS && c->sc->args[0] == 0x1011)	/* ARCH_GET_CPUID */
		c->cls = C_EMU;
	return 0;
}

/* Q_SECCOMP: strict mode: rec kept it, and answered. */
static int q_seccomp(struct engine *e, struct call *c, int phase)
{
	(void)e;
	if (phase == QP_CLASS && c->sc->args[0] == 0)
		c->cls = C_EMU;
	return 0;
}

/* Q_RLIMIT: the stack's limit lays out the mappings of the next exec and
 * bounds the stack's growth, the data limit bounds brk (performed, and
 * checked): replay's must be the same. For the process itself (pid 0 at
 * replay). */
static int q_rlimit(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_CLASS || !space_limit(e, c->sc))
		return 0;
	c->cls = C_EXEC;
	if (c->sc->nr == SYS_prlimit64) {
		c->a[0] = 0;
		pt_set_args(&c->r, c->a);
		pt_setregs(&e->p, &c->r);
	}
	return 0;
}

/* Q_PEERPID: process_vm_writev writes into a process of the tree (rec
 * made sure): the one replaying it, at the same point of its run. The
 * program gets its own registers back. */
static int q_peerpid(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_PERFORM && c->cls == C_EXEC) {
		struct eng_task *t = eng_task_of(e, (uint32_t)c->a[0]);
		if (!t || t->state == ET_GONE)
			eng_diverge(e, "process_vm_writev: process %u is not running", (unsigned)c->a[0]);
		c->a[0] = t->p.pid;
		pt_set_args(&c->r, c->a);
		pt_setregs(&e->p, &c->r);
	} else if (phase == QP_DONE) {
		c->r0.rax = c->r.rax;
		pt_setregs(&e->p, &c->r0);
	}
	return 0;
}

/* Q_SHM: shmat and shmdt (eng_replay_shm()). */
static int q_shm(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_PERFORM)
		return 0;
	eng_replay_shm(e, c->sc, &c->r, &c->r0);
	return 1;
}

/* Q_SIGRET: rt_sigreturn "returns" the interrupted rax, which may look
 * like an error; its frame is scrubbed (pos_scrub_frame). */
static int q_sigret(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_CLASS)
		c->noerr = 1;
	if (phase == QP_DONE && count_on())	/* as rec made it */
		pos_scrub_frame(&e->p, c->r0.rsp, c->r.rsp);
	return 0;
}

/* Q_ALTSTACK: sigaltstack's new stack, for checkpoints. */
static int q_altstack(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_DONE && c->sc->args[0])
		eng_note_altstack(e, c->sc->args[0]);
	return 0;
}

/* Q_SIGMASK: the mask that lets the interrupting signal in. */
static int q_sigmask(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_ANSWER)
		c->mask = call_mask(e, c->sc);
	return 0;
}

/* Q_TIDADDR: set_tid_address, performed for the word the kernel clears
 * when the thread ends (another thread may wait for it); it returns the
 * thread's id, the recorded one. Checkpoints give the address again. */
static int q_tidaddr(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_PERFORM)
		return 0;
	eng_run_call(e, &c->r);
	cur_task(e)->ctid = c->sc->args[0];
	c->r0.rax = c->sc->ret;
	pt_setregs(&e->p, &c->r0);
	return 1;
}

/* Whether nothing is mapped in [lo, lo + len) of the current thread. */
static int range_free(struct engine *e, uint64_t lo, uint64_t len)
{
	FILE *f = maps_open(e->p.pid);
	struct maps_line m;
	int free = f != NULL;
	while (free && maps_next(f, &m))
		if (m.lo < lo + len && m.hi > lo)
			free = 0;
	if (f)
		fclose(f);
	return free;
}

/* Q_MREMAP: a growing mremap of a range that was one mapping in the
 * recording may be several in replay: a file's private neighbours map
 * replay's copy through a new open each, which the kernel does not merge.
 * Then the pieces after the first are moved (or the last grown) by
 * injected calls, and the call is made on the first piece alone. */
static int q_mremap(struct engine *e, struct call *c, int phase)
{
	const uint64_t *a = c->sc->args;
	uint64_t lo[16], hi[16], dst = c->sc->ret, r;
	int n = 0;
	if (phase != QP_PERFORM || a[2] <= a[1] || (a[3] & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED)))
		return 0;
	FILE *f = maps_open(e->p.pid);
	struct maps_line m;
	while (f && maps_next(f, &m) && m.lo < a[0] + a[1])
		if (m.hi > a[0] && n < 16) {
			lo[n] = m.lo > a[0] ? m.lo : a[0];
			hi[n++] = m.hi < a[0] + a[1] ? m.hi : a[0] + a[1];
		}
	if (f)
		fclose(f);
	if (n == 1 && lo[0] == a[0] && hi[0] == a[0] + a[1] && dst != a[0] &&
	    (int64_t)dst > 0 && !(a[3] & MREMAP_FIXED) && range_free(e, dst, a[2])) {
		/* Moved where the kernel found room in the recording; replay's
		 * copy of a file may be placed otherwise (a memfd's mappings
		 * are aligned to huge pages; LTP's mremap01): the same place,
		 * where it is free here too. */
		c->a[3] = a[3] | MREMAP_MAYMOVE | MREMAP_FIXED;
		c->a[4] = dst;
		pt_set_args(&c->r, c->a);
		pt_setregs(&e->p, &c->r);
		return 0;
	}
	if (n < 2 || lo[0] != a[0] || hi[n - 1] != a[0] + a[1])
		return 0;	/* one mapping, or a hole: the kernel says */
	uint64_t at = c->r.rip - 2, grow = a[2] - a[1];
	for (int i = n - 1; i >= 0; i--) {
		uint64_t len = hi[i] - lo[i], nl = len + (i == n - 1 ? grow : 0);
		uint64_t ma[6] = { lo[i], len, nl, 0, 0 };
		if (dst != a[0]) {	/* moved: each piece to its place there */
			ma[3] = MREMAP_MAYMOVE | MREMAP_FIXED;
			ma[4] = dst + (lo[i] - a[0]);
		} else if (nl == len)
			continue;	/* grown in place: only the last grows */
		if (eng_inject(&e->p, &c->r, at, SYS_mremap, ma, &r, NULL) < 0 ||
		    r != (ma[3] ? ma[4] : lo[i]))
			eng_diverge(e, "mremap: cannot move piece 0x%llx-0x%llx of the range (0x%llx)",
				(unsigned long long)lo[i], (unsigned long long)hi[i],
				(unsigned long long)r);
	}
	e->stop = PS_SYSEXIT;
	eng_apply_mem(e, &e->cur);	/* file pages it refilled */
	tsc_syscall(&e->p, cur_task(e)->rtgid, c->sc->nr, a, c->sc->ret, NULL);
	count_syscall(&e->p, cur_task(e)->rtgid, c->sc->nr, a, c->sc->ret, NULL);
	c->r0.rax = c->sc->ret;
	pt_setregs(&e->p, &c->r0);
	return 1;
}

/* Q_PARTIAL: the kernel changes the range up to its first hole, then
 * fails with ENOMEM; replay's address space has the same holes, so the
 * call is made and must fail the same way. */
static int q_partial(struct engine *e, struct call *c, int phase)
{
	(void)e;
	if (phase == QP_CLASS && c->sc->ret == -ENOMEM)
		c->noerr = 1;
	return 0;
}

static int (*const quirks[])(struct engine *, struct call *, int) = {
	[Q_PRCTL] = q_prctl,
	[Q_SECCOMP] = q_seccomp,
	[Q_RLIMIT] = q_rlimit,
	[Q_PEERPID] = q_peerpid,
	[Q_SHM] = q_shm,
	[Q_SIGRET] = q_sigret,
	[Q_ALTSTACK] = q_altstack,
	[Q_SIGMASK] = q_sigmask,
	[Q_TIDADDR] = q_tidaddr,
	[Q_MREMAP] = q_mremap,
	[Q_ARCHPRCTL] = q_archprctl,
	[Q_PARTIAL] = q_partial,
};

/* Ask call c's quirk function, if it has one, at phase. */
static int quirk(struct engine *e, struct call *c, int phase)
{
	return c->s->quirk ? quirks[c->s->quirk](e, c, phase) : 0;
}

/* Whether the current thread's process has other threads not gone. */
static int siblings(const struct engine *e)
{
	for (int i = 0; i < e->ntasks; i++)
		if (i != e->ti && e->tasks[i].rtgid == e->tasks[e->ti].rtgid && e->tasks[i].state != ET_GONE)
			return 1;
	return 0;
}

/* An exit or exit_group (C_EXIT). */
static void finish_exit(struct engine *e, const struct trace_syscall *sc)
{
	/* The marks its end makes through robust lists, maybe in memory
	 * other processes share (rec's exit_robust_marks). */
	eng_apply_mem(e, &e->cur);
	/* With other threads about, it must go now: they wait for its end
	 * (a join), or die with it (exit_group). */
	if (eng_live(e) <= 1)
		return;
	e->how = RESUME_CONT;
	pt_resume(&e->p, RESUME_CONT, 0);
	cur_task(e)->state = ET_EXITING;
	/* After exit_group the kernel has sent SIGKILL to the other threads
	 * of its process, so none of them runs user code again: one that is
	 * resumed to end (a thread that never ran, say) dies at once instead
	 * of making a syscall the recording never saw. A first thread that
	 * ends before its siblings stays a zombie no wait reports until
	 * they end; its end (its id cleared for a join, CLONE_CHILD_CLEARTID)
	 * is done once it is one. Not waited for, a joiner answered next
	 * could run first, find the id still set and wait again (rr's
	 * main_thread_exit: 1 replay in 25 diverged). */
	int first = cur_task(e)->rtid == cur_task(e)->rtgid;
	if ((sc->nr == SYS_exit_group || first) && siblings(e))
		pt_wait_zombie(e->p.pid);
	else if (!first)
		reap_exit(e);
}

/* Answer call c from the trace (C_EMU, and a clone not performed). */
static void answer(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	eng_apply_mem(e, &e->cur);
	c->r.orig_rax = -1;
	c->r.rax = sc->ret;
	pt_setregs(&e->p, &c->r);
	if (cap_is_restart(sc->ret) || sc->ret == -EINTR) {
		quirk(e, c, QP_ANSWER);
		if (c->mask && suspend_in(e, sc, &c->r, c->mask))
			return;
	}
	if (!cap_is_restart(sc->ret))
		return;
	/* The kernel restarts a call only if orig_rax is the call, so run
	 * the skipped call to its exit and put the number back there. */
	eng_run_call(e, &c->r);
	c->r.orig_rax = sc->nr;
	c->r.rax = sc->ret;
	if (!eng_next_signal_of(e, e->cur.tid)) {
		/* Interrupted by a signal the program never saw (rec's own
		 * SIGSTOP, come as it blocked): the kernel restarted the call
		 * at once, as it does when no handler runs. No signal is
		 * pending here to make it do so: restart it. */
		c->r.rip -= 2;
		c->r.rax = sc->ret == -516 /* ERESTART_RESTARTBLOCK */ ? SYS_restart_syscall : sc->nr;
	}
	pt_setregs(&e->p, &c->r);
}

/* rt_sigsuspend (C_SUSPEND): make the recorded signal pending, then let
 * the kernel do the mask juggling of a real rt_sigsuspend. */
static void suspend(struct engine *e, struct call *c)
{
	int sig = eng_next_signal_of(e, e->cur.tid);
	if (sig) {
		syscall(SYS_tkill, e->p.pid, sig);
		e->raised = 1;
	}
	eng_run_call(e, &c->r);
	if ((int64_t)c->r.rax != c->sc->ret)
		eng_diverge(e, "rt_sigsuspend returned %lld, the trace has %lld", (long long)c->r.rax,
			(long long)c->sc->ret);
}

/* An mmap (C_MMAP): a file mapped shared is performed on replay's copy
 * of the file, and then 1 is returned; else the arguments are made those
 * of the mapping to perform at the recorded address, and 0 returned. */
static int mmap_args(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	uint64_t *a = c->a;
	struct trace_item fi, ei;
	if (eng_find_item(&e->cur, IT_EMUFILE, 0, &ei) && eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi)) {
		eng_map_emulated(e, sc, &c->r, a, &fi, &ei);
		eng_apply_mem(e, &e->cur);
		c->r0.rax = sc->ret;
		pt_setregs(&e->p, &c->r0);
		return 1;
	}
	if (!(sc->args[3] & MAP_ANONYMOUS) && eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi) &&
	    eng_map_same(e, sc, &fi)) {
		c->same = 1;
		c->r.orig_rax = SYS_mprotect;
		a[0] = sc->ret;
		pt_set_args(&c->r, a);
		pt_setregs(&e->p, &c->r);
		return 0;
	}
	if (!(sc->args[3] & MAP_ANONYMOUS) && eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi) &&
	    eng_map_direct(e, sc, &fi, &c->r, &c->d)) {
		c->direct = 1;
		return 0;
	}
	if (!(sc->args[3] & MAP_ANONYMOUS)) {
		/* A private copy of the file's bytes from the trace (a shared
		 * mapping is emulated, above; traces from before IT_EMUFILE
		 * get an anonymous one, shared with the processes forked after
		 * it when writable). */
		uint64_t how = (a[3] & MAP_SHARED_VALIDATE) != MAP_PRIVATE && (a[2] & PROT_WRITE)
				       ? MAP_SHARED : MAP_PRIVATE;
		a[3] = (a[3] & ~(uint64_t)(MAP_SHARED | MAP_SHARED_VALIDATE | MAP_PRIVATE)) | how |
		       MAP_ANONYMOUS;
		a[4] = -1;
		a[5] = 0;
	}
	if (a[3] & MAP_HUGETLB) {
		/* Replay has no huge pages reserved (the program's, or its
		 * harness's, write to nr_hugepages was answered): ordinary
		 * pages at the recorded address, as many as the kernel gave
		 * (the length rounded up to the huge page size; LTP's
		 * futex_wake04). */
		unsigned shift = (a[3] >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK;
		uint64_t huge = shift ? 1ull << shift : 2ull << 20;
		a[1] = (a[1] + huge - 1) & ~(huge - 1);
		a[3] &= ~((uint64_t)MAP_HUGETLB | (uint64_t)MAP_HUGE_MASK << MAP_HUGE_SHIFT);
	}
	a[0] = sc->ret;
	if (!(a[3] & MAP_FIXED))
		a[3] |= MAP_FIXED_NOREPLACE;
	pt_set_args(&c->r, a);
	pt_setregs(&e->p, &c->r);
	return 0;
}

/* An execve or execveat (C_EXECVE), performed on the trace's copy of the
 * executable, its path placed on the stack. */
static void perform_exec(struct engine *e, struct call *c)
{
	char tmp[64];
	const char *path = eng_exec_file(e, tmp, sizeof tmp);
	eng_note_exec(e, path);
	uint64_t at = (c->r.rsp - 8192 - strlen(path)) & ~15ull;
	if (pt_write(&e->p, at, path, strlen(path) + 1) < 0)
		eng_diverge(e, "cannot place the executable's path on the stack");
	if (c->sc->nr != SYS_execve) {	/* execveat(dirfd, path, argv, envp, flags) */
		c->a[1] = c->a[2];
		c->a[2] = c->a[3];
		c->r.orig_rax = SYS_execve;
	}
	c->a[0] = at;
	pt_set_args(&c->r, c->a);
	pt_setregs(&e->p, &c->r);
	eng_run_call(e, &c->r);
	eng_exec_done(tmp);
	if ((int64_t)c->r.rax != 0)
		eng_diverge(e, "execve of %s failed: %s", path, strerror(-(int64_t)c->r.rax));
	eng_finish_exec(e, tmp[0] != 0);
}

/* Whether call c may end as its thread goes on, with no stop at its end:
 * its result is sure and it writes nothing (an rt_sigaction that only
 * sets, cap_sure_sigaction), nothing looks at the thread before its next
 * event (e->lazy, and not the last event asked for; no tracer in the tree,
 * which may change its registers at the call's end), and no other thread
 * of its process runs meanwhile with the kernel's state of before it. */
static int ends_unseen(struct engine *e, const struct call *c)
{
	return e->lazy && !e->debug && !e->traced && !(e->limit && e->cur.event >= e->limit) &&
	       c->sc->ret == 0 && cap_sure_sigaction(&e->p, c->sc->nr, c->a) && !siblings(e);
}

/* Perform call c: run it, check the result, give back the registers the
 * program passed (we may have changed the arguments). */
static void perform(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	if (ends_unseen(e, c))
		return;		/* left at its seccomp stop: the kernel makes it on resume */
	eng_run_call(e, &c->r);
	struct trace_item it;
	int mapped = c->cls == C_MMAP && eng_find_item(&e->cur, IT_FILE, IF_MAP, &it);
	if (c->direct)
		eng_map_direct_end(e, sc, &it, &c->r, &c->d);
	if (c->same) {	/* the mprotect it was made as */
		if (c->r.rax)	/* refused (PROT_EXEC on a noexec mount): made, then filled */
			eng_map_anon(e, sc, sc->args[1]);
		c->same = !c->r.rax;
		c->r.rax = sc->ret;
	}
	if ((int64_t)c->r.rax != sc->ret)
		eng_diverge(e, "%s returned 0x%llx, the trace has 0x%llx", c->s->name,
			(unsigned long long)c->r.rax, (unsigned long long)sc->ret);
	quirk(e, c, QP_DONE);
	if (buf_readies(sc->nr, sc->args, sc->ret)) {
		buf_redirect(&e->p, cur_task(e)->rtgid);	/* the buffer is ready: as rec did here */
		e->p.nobuf = 0;
		for (int i = 0; i < e->ntasks; i++)
			if (e->tasks[i].rtgid == cur_task(e)->rtgid)
				e->tasks[i].p.nobuf = 0;
	}
	eng_apply_mem(e, &e->cur);	/* file pages a madvise or mremap refilled */
	if (c->cls == C_MMAP) {
		c->r0.rax = c->r.rax;
		pt_setregs(&e->p, &c->r0);
		if (mapped && (c->same || c->direct))
			eng_note_map(e, sc->ret, sc->args[1], &it);
		else if (mapped)
			eng_fill_map(e, sc, sc->ret, sc->args[1], &it);
	}
	tsc_syscall(&e->p, cur_task(e)->rtgid, sc->nr, sc->args, sc->ret,
		    mapped ? eng_blob_path(e, &it, 0) : NULL);
	count_syscall(&e->p, cur_task(e)->rtgid, sc->nr, sc->args, sc->ret,
		      mapped ? eng_blob_path(e, &it, 0) : NULL);
}

/* Give the current thread, at the entry of the call e->cur (whole, or
 * merged from its entry and end), the call's result: as its class says,
 * with its quirk function (sys_table.h) asked on the way. */
static void finish_call(struct engine *e, const struct sys_entry *s, const struct trace_syscall *sc)
{
	int have = entered.ok && entered.pid == e->p.pid;
	entered.ok = 0;
	if (!e->started) {
		eng_spawn(e, sc);
		return;
	}
	struct call c = { .s = s, .sc = sc, .cls = s->class };
	if (s->class == C_CLONE && cur_task(e)->state == ET_KERNEL) {
		eng_clone_finish(e, sc, &c.r);	/* a vfork parent, running until now */
		return;
	}
	if (e->perform && s->class != C_EMU) {
		e->perform(e->hook_arg);
		have = 0;
	}
	if (have)
		c.r = entered.r;
	else
		pt_getregs(&e->p, &c.r);
	c.r0 = c.r;
	pt_args(&c.r, c.a);
	quirk(e, &c, QP_CLASS);
	if (c.cls == C_EXIT) {
		finish_exit(e, sc);
		return;
	}
	if (e->cur.flags & TRF_NORETURN) {
		/* The program died inside the call: only SIGKILL does that
		 * without a signal stop (kill(getpid(), SIGKILL)). Robust
		 * mutexes first (rec's kill_robust_marks). Killed by a
		 * sibling's execve (it kills the other threads), which replay
		 * performs at its end, the thread waits in its call to die
		 * there: a SIGKILL now would kill the execing thread too. */
		eng_apply_mem(e, &e->cur);
		if (!eng_sibling_execs(e, cur_task(e)))
			kill(e->p.pid, SIGKILL);
		return;
	}
	if (c.cls == C_CLONE && sc->ret > 0) {
		eng_clone_start(e, sc);
		eng_clone_finish(e, sc, &c.r);
		return;
	}
	/* A failed call changed nothing: answer it. Not one stopped at its
	 * entry (TRF_ATENTRY): the filter would trace the skipped call's -1
	 * after; made, it fails the same way. */
	if (c.cls != C_EMU && sc->ret < 0 && !cap_is_restart(sc->ret) && !c.noerr &&
	    !(e->cur.flags & TRF_ATENTRY))
		c.cls = C_EMU;
	if (c.cls != C_EMU && quirk(e, &c, QP_PERFORM))
		return;
	switch (c.cls) {
	case C_CLONE:	/* failed, or a checkpoint's clone */
	case C_EMU:
		answer(e, &c);
		/* A tracer in the tree: its tracee counted no more, as rec's
		 * ptrace emulation made it (count_traced). */
		if (sc->nr == SYS_ptrace && sc->ret == 0 && sc->args[0] == PTRACE_TRACEME) {
			e->traced = 1;
			count_traced(&e->p, cur_task(e)->rtgid);
		} else if (sc->nr == SYS_ptrace && sc->ret == 0 &&
			   (sc->args[0] == PTRACE_ATTACH || sc->args[0] == PTRACE_SEIZE)) {
			int k = find_task(e, sc->args[1]);
			e->traced = 1;
			if (k >= 0)
				count_traced(&e->tasks[k].p, e->tasks[k].rtgid);
		}
		return;
	case C_SUSPEND:
		suspend(e, &c);
		return;
	case C_EXECVE:
		perform_exec(e, &c);
		return;
	case C_MMAP:
		if (mmap_args(e, &c))
			return;
		break;
	}
	perform(e, &c);
}

/* The call, and then, if rec patched its process for counting at its end
 * (count_call_end: the one that made its first thread or timer, or a
 * later one), the same now. */
static void sys_finish(struct engine *e, const struct sys_entry *s, const struct trace_syscall *sc)
{
	finish_call(e, s, sc);
	struct trace_item it;
	if (eng_find_item(&e->cur, IT_PATCHED, -1, &it))
		count_patch_now(&e->p, cur_task(e)->rtgid, cur_task(e)->rtid);
}

void eng_replay_syscall(struct engine *e, int k)
{
	struct trace_syscall sc;
	const struct sys_entry *s = sys_enter(e, k, &sc);
	if (!(e->cur.flags & TRF_ENTRY)) {
		sys_finish(e, s, &sc);
		return;
	}
	/* Only the entry: other threads run before the call ends. A new
	 * thread must exist for them; everything else waits for the end. */
	struct eng_task *t = cur_task(e);
	if (t->entrycap < e->cur.size) {
		t->entrycap = e->cur.size;
		t->entry = xrealloc(t->entry, t->entrycap);
	}
	memcpy(t->entry, e->cur.p, e->cur.size);
	t->entrylen = e->cur.size;
	t->state = ET_INCALL;
	/* What the kernel wrote before the call blocked (the FUTEX_WAITERS
	 * mark of a FUTEX_LOCK_PI), which other threads see meanwhile. */
	eng_apply_mem(e, &e->cur);
	if (s->class == C_CLONE)
		eng_clone_start(e, &sc);
}

/* The end of the current thread's call whose entry came earlier: the
 * entry and this record make the whole call in e->cur. */
void eng_replay_sysret(struct engine *e)
{
	struct eng_task *t = cur_task(e);
	size_t fixed = trace_fixed_size(TR_SYSRET);
	if (e->cur.size < fixed)
		eng_bad_record(e, "short syscall end record");
	if ((t->state != ET_INCALL && t->state != ET_KERNEL) || t->entrylen < trace_fixed_size(TR_SYSCALL) ||
	    get32(t->entry) != get32(e->cur.p))
		eng_diverge(e, "the end of a syscall that thread %u did not begin", t->rtid);
	size_t n = t->entrylen + e->cur.size - fixed;
	uint8_t *p = xmalloc(n);
	memcpy(p, t->entry, t->entrylen);
	memcpy(p + 56, e->cur.p + 8, 8);	/* ret */
	memcpy(p + t->entrylen, e->cur.p + fixed, e->cur.size - fixed);
	free(e->curbuf);
	e->curbuf = p;
	e->curcap = n;
	e->cur.kind = TR_SYSCALL;
	e->cur.flags = TRF_JOINED;
	e->cur.size = n;
	e->cur.p = p;
	struct trace_syscall sc;
	trace_syscall(&e->cur, &sc);
	if (t->state == ET_INCALL)
		t->state = ET_STOPPED;
	sys_finish(e, sys_row(sc.nr), &sc);
}
