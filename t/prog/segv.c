/* segv.c: touches random unmapped addresses; a SIGSEGV handler running on
 * a sigaltstack reports the fault address and siglongjmps back. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

static sigjmp_buf env;
static volatile uintptr_t fault_addr;
static volatile int on_alt;
static char altstack[64 * 1024];

static void handler(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	char here;
	fault_addr = (uintptr_t)si->si_addr;
	on_alt = &here >= altstack && &here < altstack + sizeof altstack;
	siglongjmp(env, 1);
}

int main(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	if (sigaltstack(&ss, NULL) < 0)
		return perror("sigaltstack"), 1;
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);

	for (int i = 0; i < 4; i++) {
		unsigned r;
		getrandom(&r, sizeof r, 0);
		/* Below mmap_min_addr, so never mapped. */
		volatile int *bad = (volatile int *)(uintptr_t)(16 + (r % 4000) * 4);
		if (sigsetjmp(env, 1) == 0) {
			int v = *bad;
			printf("%d no fault, read %d\n", i, v);
		} else {
			printf("%d fault at %#lx on altstack %d\n", i,
			       (unsigned long)fault_addr, on_alt);
		}
	}
	return 0;
}
