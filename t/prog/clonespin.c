/* clonespin.c: makes a thread with a bare clone (no libc start code, so
 * no call before its loop) that computes at once, while main computes
 * too; prints both sums and a random token. Under rec the new thread may
 * run before the clone's end is seen (REWIND_CLONE_GIVES_WAY=1): the
 * process is patched for counting then only once it is clear. */
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_int done;
static uint64_t seed, child_sum;
static char stack[64 * 1024] __attribute__((aligned(16)));

static uint64_t work(uint64_t x, long n)
{
	uint64_t acc = 0;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += x >> 60;
	}
	return acc;
}

static int child(void *arg)
{
	(void)arg;
	child_sum = work(seed ^ 0x9e3779b97f4a7c15ull, 30000000);
	atomic_store(&done, 1);
	syscall(SYS_exit, 0);	/* this thread only */
	return 0;
}

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	seed = 88172645463325252ull ^ token;
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
	if (clone(child, stack + sizeof stack, flags, NULL) < 0)
		return 1;
	uint64_t sum = work(seed, 20000000);
	while (!atomic_load(&done))
		sched_yield();
	printf("sums %llu %llu token %08x\n", (unsigned long long)sum, (unsigned long long)child_sum,
	       token);
	return 0;
}
