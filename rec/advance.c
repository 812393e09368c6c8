/* advance.c: a counted thread rec preempts runs on to its next counted
 * edge, armed to trap there (count.h), and is recorded at that edge: a
 * point replay reaches by its count alone, with one state compared.
 * Under --chaos, a thread is also armed for a random edge ahead. */
#include "advance.h"
#include "bufdrain.h"
#include "count.h"
#include "rec.h"
#include "records.h"
#include "task.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

/* --chaos arms a thread for an edge 1 to CHAOS_EDGES ahead (a
 * millisecond or so of a loop's work). */
#define CHAOS_EDGES (1u << 20)

/* t's advance, if any, given up: its slot disarmed. */
static void drop(struct task *t)
{
	if (t->advance)
		count_disarm(&t->p, t->tgid, t->p.pid, t->advance);
	t->advance = 0;
	t->chaos = 0;
}

/* Arm t, which holds its process's slot, for an edge 1 to CHAOS_EDGES
 * ahead. */
static int chaos_arm(struct task *t)
{
	uint64_t now, want;
	if (count_get(&t->p, t->tgid, t->p.pid, &now) < 0)
		return 0;
	want = now + 1 + rnd() % CHAOS_EDGES;
	if (count_arm(&t->p, t->tgid, t->p.pid, want) != 1)
		return 0;
	t->advance = want;
	t->chaos = 1;
	return 1;
}

/* Only a thread with another in its process: what a switch between two
 * edges can change is memory they share (processes meet at their calls,
 * where --chaos switches already). This also keeps the switch out of
 * ld.so's start, whose writable data holds what CPUID said there (the
 * APIC id of the CPU it ran on, which replay's may not share). */
void advance_chaos(struct task *t)
{
	if (!R.chaos || t->advance || !count_on())
		return;
	int threads = 0;
	for (int i = 0; i < R.ntasks; i++)
		threads += R.tasks[i]->tgid == t->tgid;
	if (threads > 1)
		chaos_arm(t);
}

int advance_start(const struct user_regs_struct *regs)
{
	uint64_t now;
	if (cur->chaos)
		drop(cur);	/* preempted before its random edge: to the next */
	/* Not from a stop at a call's end (orig_rax the call's): its state
	 * then is the kernel's (a read a signal ended), and one run on from
	 * it to an edge was found to differ in replay (bash's SIGCHLD at the
	 * read of a command substitution). */
	if ((int64_t)regs->orig_rax != -1 || cur->advance || cur->advance_failed || cur->at_edge || !count_on() || !record_could_point() ||
	    count_get(&cur->p, cur->tgid, cur->p.pid, &now) < 0 ||
	    count_arm(&cur->p, cur->tgid, cur->p.pid, now + 1) != 1)
		return 0;
	cur->advance = now + 1;
	/* A signal held on the way comes in before any call, as natively:
	 * the calls the buffer would make without a stop go traced, and a
	 * call reached before the edge is undone (advance_call). */
	if (cur->nstash)
		buf_want_traced(&cur->p);
	/* Replay raises what is held at the edge, not at the last exit. */
	cur->at_exit = 0;
	pt_resume(&cur->p, RESUME_CONT, 0);
	return 1;
}

int advance_stopped(int sig, struct user_regs_struct *regs)
{
	if (!cur->advance) {
		/* A trap taken while armed, whose SIGTRAP came only after
		 * another stop had the thread disarmed (rec, under load): not
		 * the program's. Its slot and flags made as an unarmed run
		 * leaves them, it goes on through the edge. */
		uint64_t any = COUNT_BASE;
		if (sig == SIGTRAP && count_take_trap(&cur->p, cur->tgid, cur->p.pid, regs->rip, &any)) {
			pt_resume(&cur->p, RESUME_CONT, 0);
			return -1;
		}
		return 0;
	}
	uint64_t want = cur->advance;
	int chaos = cur->chaos;
	if (sig == SIGTRAP && count_take_trap(&cur->p, cur->tgid, cur->p.pid, regs->rip, &want)) {
		cur->advance = 0;
		cur->chaos = 0;
		if (buf_busy(&cur->p)) {
			/* Inside the syscall buffer's call: on to the edge after. */
			if (count_arm(&cur->p, cur->tgid, cur->p.pid, want + 1) == 1) {
				cur->advance = want + 1;
				cur->chaos = chaos;
				pt_resume(&cur->p, RESUME_CONT, 0);
				return -1;
			}
		} else if (chaos && !others_ready()) {
			/* --chaos's edge, with no other thread to take over. */
			chaos_arm(cur);
			pt_resume(&cur->p, RESUME_CONT, 0);
			return -1;
		}
		cur->at_edge = 1;
		pt_getregs(&cur->p, regs);
		return 1;
	}
	drop(cur);
	/* A timeslice ended before the edge came (code counting does not
	 * see, or a long stretch with none): it is recorded where it is.
	 * (Not so for --chaos's edge: the preemption advances anew.) */
	if (sig == SIGSTOP && !chaos)
		cur->advance_failed = 1;
	return 0;
}

int advance_call(struct user_regs_struct *r, int *st)
{
	uint8_t insn[2];
	if (!cur->advance || !cur->nstash || pt_read(&cur->p, r->rip - 2, insn, 2) != 2 ||
	    insn[0] != 0x0f || insn[1] != 0x05)
		return 0;
	drop(cur);
	cur->advance_failed = 1;
	/* Skipped (orig_rax -1), and back before its syscall instruction
	 * with its number in rax: as it was before it made the call. The
	 * step's trap comes as it returns, before it runs anything. */
	r->rax = r->orig_rax;
	r->orig_rax = -1;
	r->rip -= 2;
	pt_setregs(&cur->p, r);
	pt_resume(&cur->p, RESUME_STEP, 0);
	for (;;) {
		if (wait_any(cur->p.pid, st, 0) <= 0)
			continue;
		if (!WIFSTOPPED(*st))
			return -1;
		if (WSTOPSIG(*st) == SIGTRAP)
			break;
		/* Another signal on the way: held with the rest. */
		siginfo_t si;
		if (ptrace(PTRACE_GETSIGINFO, cur->p.pid, 0, &si) == 0 && cur->nstash < 64)
			cur->stash[cur->nstash++] = si;
		pt_resume(&cur->p, RESUME_STEP, 0);
	}
	pt_getregs(&cur->p, r);
	return 1;
}

void advance_before_switch(struct task *t)
{
	for (int i = 0; i < R.ntasks; i++) {
		struct task *x = R.tasks[i];
		if (x != t && x->tgid == t->tgid && x->advance)
			drop(x);
	}
}

void advance_cancel(void)
{
	drop(cur);
	cur->advance_failed = 0;
}

void advance_done(void)
{
	cur->advance_failed = 0;
	cur->at_edge = 0;
}
