/* tscshare.c: the tracer's thread traps rdtsc as its tracees do, and a
 * SIGSEGV handler runs its own rdtsc and rdtscp with the trap lifted for
 * that one instruction (see tscshare.h). */
#include "tscshare.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>
#include <x86intrin.h>

/* The kernel's struct sigaction. The handler is set by the syscall, not
 * libc's sigaction: a sanitizer's interceptor keeps SIGSEGV for itself
 * (ASan's handle_segv), and its runtime reads the clock by the vDSO. */
struct kact {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};
#define KSA_RESTORER 0x04000000

static struct kact before;	/* SIGSEGV's action before tsc_share */

/* The return from the handler: rt_sigreturn. */
void tscshare_restore(void) __attribute__((visibility("hidden")));
__asm__(".text\n"
	".type tscshare_restore, @function\n"
	"tscshare_restore:\n"
	"\tmov $15, %eax\n"
	"\tsyscall\n"
	".size tscshare_restore, . - tscshare_restore\n");

static long kaction(const struct kact *act, struct kact *old)
{
	return syscall(SYS_rt_sigaction, SIGSEGV, act, old, 8);
}

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
	(void)sig;
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;
	int n = insn_len(si, (const uint8_t *)g[REG_RIP]);
	if (!n) {
		/* Not ours: the fault comes again under the action it had. */
		kaction(&before, NULL);
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

void tsc_share(int tracees_trap)
{
	static int done;	/* the handler is set */
	if (done) {
		prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);	/* again, after tsc_unshare */
		return;
	}
	if (!tracees_trap || env_flag("REWIND_NO_TSC_SHARE"))
		return;
	struct kact sa = { on_segv, SA_SIGINFO | SA_RESTART | KSA_RESTORER, tscshare_restore, 0 };
	if (kaction(&sa, &before) < 0)
		return;
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) < 0) {
		kaction(&before, NULL);
		return;
	}
	done = 1;
}

int tsc_unshare(void)
{
	int mode = 0;
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) < 0 || mode != PR_TSC_SIGSEGV)
		return 0;
	return prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0) == 0;
}

void tsc_reshare(int was)
{
	if (was)
		prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
}

uint64_t tsc_read(int rdtscp, uint32_t *aux)
{
	unsigned a = 0;
	uint64_t t = rdtscp ? __rdtscp(&a) : __rdtsc();
	*aux = a;
	return t;
}
