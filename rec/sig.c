/* sig.c: signals delivered to the program, rdtsc and CPUID stops, and preemption
 * (its state record, TR_PREEMPT, is written by records.c). */
#include "advance.h"
#include "bufdrain.h"
#include "count.h"
#include "dirty.h"
#include "events.h"
#include "ptemu.h"
#include "rec.h"
#include "records.h"
#include "sig.h"
#include "sys.h"
#include "task.h"
#include "trapact.h"
#include "tsc.h"
#include "tscshare.h"
#include "tty.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <unistd.h>

static int is_sync(const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP: case SIGSYS:
		return si->si_code > 0;
	}
	return 0;
}

/* Whether the kernel drops signal sig now that cur's tracer lets it
 * through: cur's process is the init of a pid namespace, and sig is at
 * its default action, which is not to ignore it, and is neither SIGKILL
 * nor SIGSTOP. Natively the kernel drops it as it is sent (it never
 * comes); replay, not such an init, would be killed by it. */
static int init_drops(int sig)
{
	uint64_t caught, ign, bit = 1ull << (sig - 1);
	return sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD && sig != SIGCONT &&
	       sig != SIGURG && sig != SIGWINCH && self_id(cur->tgid, 0) == 1 &&
	       pt_status_hex(cur->p.pid, "SigCgt:", &caught) == 0 && !(caught & bit) &&
	       pt_status_hex(cur->p.pid, "SigIgn:", &ign) == 0 && !(ign & bit);
}

/* Whether the fault sig (synchronous) kills cur's process natively but
 * not under ptrace: it is a pid namespace's init, which the kernel makes
 * killable by a fatal fault only when no tracer is attached (it drops
 * the signal, and the fault comes again for ever). Fatal: not caught, or
 * caught and blocked (the kernel then resets it to the default). */
static int init_dies(int sig)
{
	uint64_t caught, blocked = 0, bit = 1ull << (sig - 1);
	if (self_id(cur->tgid, 0) != 1 || pt_status_hex(cur->p.pid, "SigCgt:", &caught) < 0)
		return 0;	/* the common case: one read, no mask asked */
	ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof blocked, &blocked);
	return !(caught & bit) || (blocked & bit);
}

/* The status a process killed by sig ends with: with the core dump flag
 * where its RLIMIT_CORE lets the kernel write one. */
static int killed_status(int sig)
{
	struct rlimit rl;
	int core = prlimit(cur->p.pid, RLIMIT_CORE, NULL, &rl) == 0 && rl.rlim_cur > 0;
	return sig | (core ? 0x80 : 0);
}

/* CPUID stops (lib/tsc.h): rec asks its own CPU, with per-CPU ids
 * zeroed, and records the answer; or, in a thread that left the CPU
 * whose table the trace keeps (TSC_CPUID_TABLE), answers from that
 * table, which replay does too: nothing to record. */
static void do_cpuid(struct user_regs_struct *regs)
{
	uint32_t in[2] = { regs->rax, regs->rcx }, out[4];
	uint64_t rip = regs->rip;
	if (R.tsc_way & TSC_CPUID_TABLE) {
		if (tsc_table_answer(in, out) < 0)
			stop_recording(EXIT_TRACE, "CPUID leaf 0x%x subleaf 0x%x at 0x%llx is not in "
				       "the table of the CPU the program ran on; the trace %s ends "
				       "before it (REWIND_CPUID_FAULT=1 records each answer)", in[0],
				       in[1], (unsigned long long)rip, R.dir);
		tsc_cpuid_done(&cur->p, regs, out);
		return;
	}
	tsc_cpuid(in, out);
	tsc_cpuid_done(&cur->p, regs, out);
	begin(TR_CPUID, 0);
	tw_put64(&R.w, rip);
	tw_put(&R.w, in, 8);
	tw_put(&R.w, out, 16);
	tw_end(&R.w);
}

/* rdtsc, rdtscp and CPUID stop (lib/tsc.h); run them here and record
 * what they give. Returns 1 if the stop was one of them. */
static int do_trapped(const siginfo_t *si, struct user_regs_struct *regs)
{
	int kind = tsc_stopped(&cur->p, cur->tgid, si, regs->rip);
	/* The program's own PR_TSC_SIGSEGV: the trap's fault is its own.
	 * A patched place stops with SIGILL: there the host (or
	 * REWIND_NO_TSC_TRAP) has no trap, and rdtsc runs as it would
	 * natively on such a host. A CPUID's fault is always rec's: the
	 * program cannot ask for it (own_entry()). */
	if (cur->own.tsc == PR_TSC_SIGSEGV && si->si_signo == SIGSEGV && kind != TSC_CPUID_INSN)
		kind = 0;
	if (!kind)
		return 0;
	/* The kernel forces the trap's signal in: one the program blocked
	 * (as across an execve) it unblocked, and one it blocked or
	 * ignored it reset to the default action. Undone, it is as it was
	 * without rec (for rdtsc also in replay: trapact.c). */
	uint64_t bit = 1ull << (si->si_signo - 1);
	if (kind == TSC_CPUID_INSN) {
		if (cur->mask & bit)
			pt_block_signal(&cur->p, si->si_signo);
		do_cpuid(regs);
		return 1;
	}
	int isp = kind == TSC_RDTSCP;
	uint32_t aux;
	uint64_t tsc = tsc_read(isp, &aux);
	uint64_t rip = regs->rip;
	begin(TR_RDTSC, 0);
	tw_put64(&R.w, rip);
	tw_put64(&R.w, tsc);
	tw_put32(&R.w, aux);
	tw_put32(&R.w, isp);
	trapact_fix(si->si_signo, (cur->mask & bit) != 0, regs);
	tw_end(&R.w);
	regs->rax = (uint32_t)tsc;
	regs->rdx = tsc >> 32;
	if (isp)
		regs->rcx = aux;
	regs->rip += isp ? 3 : 2;
	pt_setregs(&cur->p, regs);
	return 1;
}

void sig_resume(struct task *t, int sig)
{
	struct user_regs_struct r;
	if (sig && !t->sig_top && pt_getregs_alive(&t->p, &r) == 0)
		t->sig_top = r.rsp;
	pt_resume(&t->p, RESUME_CONT, sig);
}

/* cur was stopped between syscalls (sig.h): its state is recorded
 * there, which replay makes again, then what it held is delivered. */
int sig_preempt(struct user_regs_struct *regs)
{
	if (advance_start(regs))
		return 1;
	R.gave_way = cur->p.pid;
	/* It runs no more: no SIGSTOP of on_alarm's may come while its state
	 * is taken (seg_ticks is past want_ticks still). One would stop the
	 * steps out of a counting trampoline, and be passed over there with
	 * R.preempting left set, so that none was ever sent to it again. */
	R.run_tid = 0;
	/* Replay raises a signal with no preemption before it where the
	 * thread was last: here now, not at its last syscall's exit. */
	cur->at_exit = 0;
	/* Its first preemption gives the process a userfaultfd. The calls
	 * injected for it end this signal-delivery-stop: a held signal
	 * waits for the next syscall or preemption (below), else a process
	 * that always holds one (a fast timer) would never have one. */
	int moved = 0;
	if (!cur->tracer)
		moved = dirty_setup(&cur->p, cur->tgid, cur->stash, &cur->nstash, 64);
	/* A SIGSTOP of ours that came during those calls was dropped there:
	 * without this, none would be sent to it again (on_alarm), and a
	 * thread that spins would never give way (spin count hung rec). One
	 * still on its way is passed over when it comes (do_signal). */
	if (moved && R.preempting == cur->p.pid)
		R.preempting = 0;
	/* The place recorded is in the program's code, not a trampoline.
	 * Signals that came on the way are held; a SIGSTOP of ours (sent
	 * before this stop, for an earlier timeslice) is passed over. */
	siginfo_t got[8];
	int ngot = count_step_out(&cur->p, cur->tgid, regs, got, 8);
	for (int k = 0; k < ngot; k++) {
		if (got[k].si_signo == SIGSTOP && sig_ours(&got[k])) {
			if (R.preempting == cur->p.pid)
				R.preempting = 0;
		} else if (cur->nstash < 64) {
			cur->stash[cur->nstash++] = got[k];
		}
	}
	int rs = record_state(regs, TRP_RAN);
	advance_done();
	if (rs < 0) {
		cur->sig_in = 0;
		ready(cur);	/* it dies when resumed */
		return 0;
	}
	/* The first held signal it does not block now is delivered here,
	 * and replay raises it at the same place. One it blocked since it
	 * came (rt_sigprocmask, a handler's mask) waits for the call that
	 * lets it in, as it would natively: made the stop's signal, the
	 * kernel would only queue it again, and replay would wait here for
	 * a delivery that never came (and find the next call instead). */
	uint64_t blocked = 0;
	ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof blocked, &blocked);
	int i = 0;
	while (i < cur->nstash && (blocked >> (cur->stash[i].si_signo - 1) & 1))
		i++;
	cur->held_blocked = cur->nstash && i == cur->nstash;
	if (cur->nstash && moved) {
		buf_want_traced(&cur->p);	/* came meanwhile: held */
	} else if (i < cur->nstash) {
		siginfo_t si = cur->stash[i];
		memmove(&cur->stash[i], &cur->stash[i + 1], (cur->nstash - i - 1) * sizeof si);
		cur->nstash--;
		record_signal(si.si_signo, TRS_ASYNC, &si);
		ptrace(PTRACE_SETSIGINFO, cur->p.pid, 0, &si);
		cur->sig = si.si_signo;
	}
	/* Stopped for a signal that came, it runs on into its handler, as
	 * natively: giving way at each would let a thread that is sent
	 * signals while it waits its turn never move (a parent sending its
	 * child SIGWINCH in a loop hung rec). Under --chaos it gives way. */
	if (cur->sig_in && !R.chaos) {
		int sig = cur->sig;
		cur->sig_in = cur->sig = 0;
		R.run_tid = cur->p.pid;
		sig_resume(cur, sig);
		return 1;
	}
	cur->sig_in = 0;
	ready(cur);
	return 0;
}

/* A signal-delivery-stop of cur (running). Returns 1 if cur keeps
 * running (resumed), 0 if it stopped running. */
int do_signal(int sig)
{
	siginfo_t si;
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETSIGINFO, cur->p.pid, 0, &si) < 0) {
		/* A group-stop (SIGSTOP, SIGTSTP...): it stays stopped, as its
		 * parent may see with WUNTRACED, until a SIGCONT comes. */
		advance_cancel();
		cur->state = T_STOPPED;
		if (sig != SIGSTOP && cur->p.pid == R.root)
			job_stop(sig);
		return 0;
	}
	pt_getregs(&cur->p, &regs);
	/* Advancing to its next counted edge: there, or given up. */
	int adv = advance_stopped(sig, &regs);
	if (adv)
		return adv > 0 ? sig_preempt(&regs) : 1;
	int boundary = cur->at_exit && !memcmp(&regs, &cur->exit_regs, sizeof regs);
	/* rec's own SIGSTOP preempts, unless it raised a held SIGSTOP of
	 * the program's (the two look alike: cur->injected tells). */
	if (sig == SIGSTOP && cur->injected != SIGSTOP && sig_ours(&si)) {
		if (R.preempting == cur->p.pid)
			R.preempting = 0;
		/* Not where its last call ended, though the registers are
		 * those: a thread that spins on memory comes back to them
		 * (heldmask's parent, once its handler returned, made rec
		 * pass over each SIGSTOP and hung). A thread that did not
		 * run at all since is stopped there as well, for its time
		 * is up all the same. */
		int due = cur->stop_due;	/* REWIND_STOP_IN_CALL's (calls.c): its time is up */
		cur->stop_due = 0;
		if (!due && (!R.want_ticks || R.seg_ticks < R.want_ticks || buf_busy(&cur->p))) {
			/* Sent for an earlier timeslice: it goes on. */
			pt_resume(&cur->p, RESUME_CONT, 0);
			return 1;
		}
		cur->sig_in = 0;
		return sig_preempt(&regs);
	}
	/* REWIND_BUF_PREEMPT's trap: preempted as by a signal that came
	 * there (one held while the library is busy or for a tracer). */
	if (sig == SIGTRAP && buf_preempt_hit(&cur->p, &si, regs.rip)) {
		if (buf_busy(&cur->p) || cur->tracer) {
			pt_resume(&cur->p, RESUME_CONT, 0);
			return 1;
		}
		cur->sig_in = 0;
		return sig_preempt(&regs);
	}
	if (do_trapped(&si, &regs)) {
		pt_resume(&cur->p, RESUME_CONT, 0);
		return 1;
	}
	int flags = 0;
	if (!is_sync(&si) && !cur->tracer && init_drops(sig)) {	/* a tracer would see it */
		pt_resume(&cur->p, RESUME_CONT, 0);
		return 1;
	}
	if (!is_sync(&si)) {
		/* Registers alone do not say it is at the exit still: a
		 * thread that spins comes back to the same ones, and a signal
		 * that came then, raised by replay at the exit, would run its
		 * handler on other memory. It is there if the signal waited
		 * at the exit (or is the one raised at the entry). Once the
		 * process's queue has none left, a process-wide one waits
		 * for no other thread either. */
		uint64_t bit = 1ull << (sig - 1), now[2];
		boundary = boundary && (sig == cur->injected ||
					((cur->exit_pend[0] | cur->exit_pend[1]) & bit));
		cur->exit_pend[0] &= ~bit;
		cur->exit_pend[1] &= ~bit;
		pt_pending(&cur->p, now);
		if (!(now[1] & bit))	/* no other thread takes it now */
			for (int k = 0; k < R.ntasks; k++)
				if (R.tasks[k]->tgid == cur->tgid)
					R.tasks[k]->exit_pend[1] &= ~bit;
		int i;
		for (i = 0; i < cur->nstash && cur->stash[i].si_signo != sig; i++)
			;
		if (!boundary) {
			/* Held: a standard signal held already merges with
			 * it, as pending ones do; real-time signals queue,
			 * each held. Where the thread runs its own code it is
			 * preempted here and the signal delivered now, as the
			 * kernel delivers it (replay sets the recorded state
			 * and raises it there). Inside the syscall buffer's
			 * call, in a thread traced by the program (whose
			 * tracer sees its signals at a call), or with
			 * REWIND_HOLD_SIGNALS=1, it waits for
			 * the next syscall, where replay can raise it; if
			 * none comes within a timeslice, the thread is
			 * stopped and it is delivered there. */
			if ((i == cur->nstash || sig >= SIGRTMIN) && cur->nstash < 64)
				cur->stash[cur->nstash++] = si;
			cur->held_blocked = 0;	/* this one came in */
			if (!env_flag("REWIND_HOLD_SIGNALS") && !buf_busy(&cur->p) && !cur->tracer) {
				cur->sig_in = 1;
				return sig_preempt(&regs);
			}
			buf_want_traced(&cur->p);
			pt_resume(&cur->p, RESUME_CONT, 0);
			return 1;
		}
		if (i < cur->nstash) {
			si = cur->stash[i];
			ptrace(PTRACE_SETSIGINFO, cur->p.pid, 0, &si);
			memmove(&cur->stash[i], &cur->stash[i + 1], (cur->nstash - i - 1) * sizeof si);
			cur->nstash--;
		}
		if (sig == cur->injected)
			cur->injected = 0;
		flags = TRS_ASYNC;
	}
	if (cur->tracer && sig != SIGKILL) {
		ptemu_signal_stop(sig, flags, &si);
		return 0;
	}
	record_signal(sig, flags, &si);
	if (!flags && init_dies(sig))
		return -killed_status(sig);
	sig_resume(cur, sig);
	return 1;
}
