/* ptstep.c: PTRACE_SINGLESTEP for tracers inside the recorded tree (see
 * ptstep.h). The step is made on the real thread, as the tracer's call
 * is answered, and the tracee's state after it is recorded as one its
 * tracer gave it (a TR_PREEMPT), so replay never steps. */
#include "bufdrain.h"
#include "events.h"
#include "ptstep.h"
#include "rec.h"
#include "sys_names.h"
#include "task.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static void __attribute__((noreturn)) refuse(const char *why)
{
	stop_recording(EXIT_TRACE, "the program made syscall ptrace (101) with PTRACE_SINGLESTEP %s, "
		       "which rewind cannot record yet; the trace %s ends before it", why, rec_dir());
}

int ptstep_fault(const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP: case SIGSYS:
		return si->si_code > 0;
	}
	return 0;
}

void ptstep_check(const struct task *t)
{
	if (t->state != T_READY || t->pinside || t->pvfdone || t->pexit || t->ptrap)
		refuse("of a thread stopped inside a call");
	if (t->pcall == P_ENTRY || t->pcall == P_GO)
		refuse("from a syscall-entry stop (its call not begun)");
}

int ptstep(struct task *t, int sig, int *stp, siginfo_t *sip)
{
	struct task *me = cur;
	pid_t tid = t->p.pid;
	t->pcall = 0;	/* from a call's exit: the call is over */
	t->dirty = 1;	/* recorded when it goes on, or makes a call */
	siginfo_t si;
	int st;
	/* With a signal: its handler's frame is made, and it stops
	 * before the handler's first instruction. A call of the
	 * syscall-buffering library it steps into goes the traced way. */
	buf_want_traced(&t->p);
	pt_resume(&t->p, RESUME_STEP, sig);
	for (;;) {
		if (wait_any(tid, &st, 0) <= 0)
			continue;
		cur = t;
		if (!WIFSTOPPED(st)) {
			handle_other(st);	/* killed meanwhile: its end is seen */
			cur = me;
			return PTSTEP_GONE;
		}
		int k = pt_classify(st);
		if (k == PS_SECCOMP) {
			/* The step made a syscall: it is made and recorded as
			 * any other (resumed for it without the step), and
			 * the SIGTRAP the kernel sends at its end is made
			 * there (ptemu_exit_stop). Its tracer waits. */
			t->pstepsys = 1;
			t->pstop = t->report = t->psig = 0;
			cur = me;
			*stp = st;
			return PTSTEP_CALL;
		}
		if (k != PS_SIGNAL || ptrace(PTRACE_GETSIGINFO, tid, 0, &si) < 0)
			refuse("that stopped other than by a signal");
		if (si.si_signo == SIGSTOP && sig_ours(&si)) {	/* a preemption sent before the step */
			if (R.preempting == tid)
				R.preempting = 0;
			buf_want_traced(&t->p);
			pt_resume(&t->p, RESUME_STEP, 0);
			continue;
		}
		if (!ptstep_fault(&si)) {
			/* A signal from outside: held, as a tracee's are, for
			 * its next call; the step goes on. */
			if (t->nstash < 64)
				t->stash[t->nstash++] = si;
			buf_want_traced(&t->p);
			pt_resume(&t->p, RESUME_STEP, 0);
			continue;
		}
		break;
	}
	t->at_exit = 0;
	cur = me;
	*sip = si;
	return PTSTEP_STOP;
}
