/* ignwait.c: the signals the program ignores, blocked across the calls
 * they would interrupt with EINTR under ptrace alone, and such a call
 * that rec's own SIGSTOP interrupted, restarted (see ignwait.h). */
#include "ignwait.h"
#include "rec.h"
#include "task.h"

#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

/* Whether call nr (arguments a) fails with EINTR when a signal wakes it,
 * whether a handler runs or not: those that set a mask of their own for
 * the wait (a sigmask argument) would unblock them again. */
static int eintr_always(long nr, const uint64_t a[6])
{
	switch (nr) {
	case SYS_rt_sigtimedwait:
	case SYS_epoll_wait:
	case SYS_semop:
	case SYS_semtimedop:
		return 1;
	case SYS_epoll_pwait:
	case SYS_epoll_pwait2:
		return !a[4];
	}
	return 0;
}

void ignwait_entry(long nr, const uint64_t a[6])
{
	uint64_t ign, mask;
	cur->ign_held = 0;
	if (!eintr_always(nr, a) || pt_status_hex(cur->p.pid, "SigIgn:", &ign) < 0 || !ign ||
	    ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof mask, &mask) < 0)
		return;
	/* rt_sigtimedwait unblocks what it waits for: those it may take. */
	uint64_t set = 0;
	if (nr == SYS_rt_sigtimedwait && a[0] && pt_read(&cur->p, a[0], &set, 8) != 8)
		set = 0;
	uint64_t add = ign & ~mask & ~set & ~(1ull << (SIGKILL - 1) | 1ull << (SIGSTOP - 1));
	if (!add)
		return;
	uint64_t held = mask | add;
	if (ptrace(PTRACE_SETSIGMASK, cur->p.pid, sizeof held, &held) == 0) {
		cur->ign_held = 1;
		cur->ign_mask = mask;
	}
}

void ignwait_exit(void)
{
	if (!cur->ign_held)
		return;
	cur->ign_held = 0;
	ptrace(PTRACE_SETSIGMASK, cur->p.pid, sizeof cur->ign_mask, &cur->ign_mask);
}

int ignwait_own_stop(long nr, const uint64_t a[6], int64_t ret)
{
	uint64_t none[6] = { 0 }, mask, others = 0;
	if (ret != -EINTR || !eintr_always(nr, (nr == SYS_epoll_pwait || nr == SYS_epoll_pwait2) ? none : a) ||
	    ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof mask, &mask) < 0)
		return 0;
	int ours = 0;
	siginfo_t q[16];
	for (int shared = 0; shared < 2; shared++) {
		struct __ptrace_peeksiginfo_args pa = { 0, shared ? PTRACE_PEEKSIGINFO_SHARED : 0, 16 };
		long n = ptrace(PTRACE_PEEKSIGINFO, cur->p.pid, &pa, q);
		for (long i = 0; i < n; i++) {
			if (q[i].si_signo == SIGSTOP && !shared && sig_ours(&q[i]))
				ours = 1;
			else if (q[i].si_signo > 0 && q[i].si_signo <= 64)
				others |= 1ull << (q[i].si_signo - 1);
		}
	}
	/* With a mask of the call's own, it holds until the signal's
	 * delivery: what it unblocks counts too. */
	return ours && !(others & ~mask & ~(1ull << (SIGSTOP - 1)));
}
