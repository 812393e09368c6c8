/* stacklimit.c: the limits on the address space matter beyond
 * getrlimit: a child that sets RLIMIT_STACK unlimited before it executes
 * this program again gets the legacy bottom-up layout (its mappings land
 * elsewhere), one that lowers it to 256 KiB overflows its stack in a
 * deep recursion (SIGSEGV, caught on an alternate stack), and one with
 * an 8 MiB RLIMIT_DATA cannot grow its heap by 64 MiB with sbrk. Prints
 * where a mapping landed, how deep the recursion went, what sbrk did,
 * and a random token. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf back;
static volatile long depth;

static void overflow(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

/* Ends only by the overflow; limit keeps the compiler from saying so. */
static long recurse(long n, long limit)
{
	volatile char pad[1024];
	pad[0] = (char)n;
	depth = n;
	return n == limit ? 0 : recurse(n + 1, limit) + pad[0];
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		void *m = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		printf("after exec with the %s stack limit: a mapping at %p\n", argv[1], m);
		return 0;
	}
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };
		if (setrlimit(RLIMIT_STACK, &r) < 0)
			r.rlim_cur = r.rlim_max = 0;
		execl("/proc/self/exe", argv[0], r.rlim_cur ? "unlimited" : "unchanged", NULL);
		_exit(1);
	}
	waitpid(p, NULL, 0);
	p = fork();
	if (p == 0) {
		struct rlimit r;
		getrlimit(RLIMIT_STACK, &r);
		r.rlim_cur = 256 << 10;
		setrlimit(RLIMIT_STACK, &r);
		stack_t ss = { .ss_sp = malloc(65536), .ss_size = 65536 };
		sigaltstack(&ss, NULL);
		struct sigaction sa = { .sa_handler = overflow, .sa_flags = SA_ONSTACK };
		sigaction(SIGSEGV, &sa, NULL);
		if (!sigsetjmp(back, 1))
			recurse(0, -1);
		printf("with a 256 KiB stack: SIGSEGV at depth %ld\n", depth);
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	p = fork();
	if (p == 0) {
		struct rlimit r;
		getrlimit(RLIMIT_DATA, &r);
		r.rlim_cur = 8 << 20;
		setrlimit(RLIMIT_DATA, &r);
		void *b0 = sbrk(0), *b1 = sbrk(64 << 20), *b2 = sbrk(4096);
		printf("with an 8 MiB data limit: sbrk of 64 MiB %s, of a page %s\n",
		       b1 == (void *)-1 ? "fails" : "works", b2 == b0 ? "works" : "fails");
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(p, &st, 0);
	printf("children done (%d)\n", st);
	return 0;
}
