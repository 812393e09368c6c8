/* trapact.c: the actions of SIGSEGV and SIGILL as each process set them,
 * given back where the fault of a trap of rec's own reset one (see
 * trapact.h). */
#include "inject.h"
#include "rec.h"
#include "trace.h"
#include "trapact.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

static int slot(int sig)
{
	return sig == SIGSEGV ? 0 : sig == SIGILL ? 1 : -1;
}

void trapact_start(struct task *root, uint64_t ignored)
{
	static const int sigs[2] = { SIGSEGV, SIGILL };
	for (int i = 0; i < 2; i++) {
		memset(root->tact[i].act, 0, sizeof root->tact[i].act);
		root->tact[i].act[0] = (ignored >> (sigs[i] - 1) & 1) ? (uint64_t)SIG_IGN : 0;
		root->tact[i].known = 1;
	}
}

void trapact_entry(long nr, const uint64_t a[6])
{
	uint64_t act[4];
	int i = slot((int)a[0]);
	if (nr != SYS_rt_sigaction || i < 0 || !a[1] || a[3] != 8)
		return;
	/* Unreadable, the call fails (EFAULT) and changes nothing; else it
	 * cannot fail. */
	if (pt_read(&cur->p, a[1], act, sizeof act) != sizeof act)
		return;
	for (int k = 0; k < R.ntasks; k++)
		if (R.tasks[k]->tgid == cur->tgid && R.tasks[k]->tact[i].known >= 0) {
			memcpy(R.tasks[k]->tact[i].act, act, sizeof act);
			R.tasks[k]->tact[i].known = 1;
		}
}

void trapact_clone(struct task *child, const struct task *parent, uint64_t flags)
{
	memcpy(child->tact, parent->tact, sizeof child->tact);
	if (flags & CLONE_THREAD)
		return;		/* one process: the same actions */
	if (flags & CLONE_SIGHAND) {
		/* Two processes behind one table of actions: a set in one
		 * is not seen in the other's records. Never known again. */
		for (int k = 0; k < R.ntasks; k++)
			if (R.tasks[k]->tgid == parent->tgid)
				R.tasks[k]->tact[0].known = R.tasks[k]->tact[1].known = -1;
		child->tact[0].known = child->tact[1].known = -1;
	}
	if (flags & 0x100000000ull)	/* CLONE_CLEAR_SIGHAND */
		for (int i = 0; i < 2; i++)
			if (child->tact[i].act[0] != (uint64_t)SIG_IGN)
				memset(child->tact[i].act, 0, sizeof child->tact[i].act);
}

void trapact_exec(void)
{
	for (int i = 0; i < 2; i++) {
		uint64_t h = cur->tact[i].act[0];
		memset(cur->tact[i].act, 0, sizeof cur->tact[i].act);
		cur->tact[i].act[0] = h == (uint64_t)SIG_IGN ? h : 0;
	}
}

void trapact_delivered(int sig, const siginfo_t *si)
{
	int i = slot(sig);
	if (i < 0 || cur->tact[i].known <= 0)
		return;
	uint64_t h = cur->tact[i].act[0], flags = cur->tact[i].act[1];
	int caught = h != (uint64_t)SIG_DFL && h != (uint64_t)SIG_IGN;
	/* A handler's run leaves the action as it is but for SA_RESETHAND;
	 * a fault (si_code > 0) the handler does not take (blocked, ignored,
	 * the default) may have reset it, and the process mostly ends. */
	int known = caught || si->si_code <= 0;
	for (int k = 0; k < R.ntasks; k++) {
		struct task *t = R.tasks[k];
		if (t->tgid != cur->tgid || t->tact[i].known <= 0)
			continue;
		t->tact[i].known = known;
		if (caught && (flags & SA_RESETHAND))
			memset(t->tact[i].act, 0, sizeof t->tact[i].act);
	}
}

void trapact_fix(int sig, int blocked, const struct user_regs_struct *r)
{
	int i = slot(sig);
	uint32_t hdr[2] = { (uint32_t)sig, 0 };
	if (i < 0)
		return;
	const uint64_t *act = cur->tact[i].act;
	int known = cur->tact[i].known > 0, ignored = known && act[0] == (uint64_t)SIG_IGN;
	if (blocked && pt_block_signal(&cur->p, sig) == 1)
		hdr[1] |= 1;
	/* Blocked or ignored, the fault reset the action to the default:
	 * set back where known (else it stays reset, as it always did). */
	if ((blocked || ignored) && known && act[0] != (uint64_t)SIG_DFL &&
	    inject_sigaction(&cur->p, r, sig, act) == 0)
		hdr[1] |= 2;
	if (hdr[1])
		tw_item(&R.w, IT_TRAPACT, 0, hdr, sizeof hdr, hdr[1] & 2 ? act : NULL,
			hdr[1] & 2 ? 32 : 0);
}
