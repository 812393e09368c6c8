/* tscshare.c: the tracer's thread traps rdtsc as its tracees do, and a
 * SIGSEGV handler runs its own rdtsc and rdtscp with the trap lifted for
 * that one instruction (see tscshare.h). */
#include "tscshare.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <x86intrin.h>

static struct sigaction before;	/* SIGSEGV's action before tsc_share */

/* The instruction at ip, if the trap stopped it: 2 (rdtsc), 3 (rdtscp),
 * else 0. Read only for a fault the kernel raised itself (SI_KERNEL: a
 * general protection fault, where ip can be read), not for a bad address. */
static int insn_len(const siginfo_t *si, const uint8_t *ip)
{
	if (si->si_code != SI_KERNEL || ip[0] != 0x0f)
		return 0;
	if (ip[1] == 0x31)
		return 2;
	return ip[1] == 0x01 && ip[2] == 0xf9 ? 3 : 0;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;
	int n = insn_len(si, (const uint8_t *)g[REG_RIP]);
	if (!n) {
		/* Not ours: the fault comes again under the action it had. */
		sigaction(sig, &before, NULL);
		return;
	}
	unsigned aux = 0;
	int e = errno;	/* the interrupted code's */
	prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	uint64_t t = n == 3 ? __rdtscp(&aux) : __rdtsc();
	prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
	errno = e;
	g[REG_RAX] = (uint32_t)t;
	g[REG_RDX] = t >> 32;
	if (n == 3)
		g[REG_RCX] = aux;
	g[REG_RIP] += n;
}

void tsc_share(void)
{
	static int done;
	if (done || !tsc_traps() || env_flag("REWIND_NO_TSC_SHARE"))
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sigaction(SIGSEGV, &sa, &before) < 0)
		return;
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) < 0) {
		sigaction(SIGSEGV, &before, NULL);
		return;
	}
	done = 1;
}

void tsc_unshare(void)
{
	prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
}

uint64_t tsc_read(int rdtscp, uint32_t *aux)
{
	unsigned a = 0;
	uint64_t t = rdtscp ? __rdtscp(&a) : __rdtsc();
	*aux = a;
	return t;
}
