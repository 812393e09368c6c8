/* deadline.c: a thread makes itself SCHED_DEADLINE (sched_setattr) and
 * reads its policy back (sched_getattr): prints both answers, and a
 * random token. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
};

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	struct attr a = { sizeof a, 6 /* SCHED_DEADLINE */, 0, 0, 0, 10000000, 30000000, 30000000 };
	errno = 0;
	long r = syscall(SYS_sched_setattr, 0, &a, 0);
	printf("sched_setattr: %ld %s\n", r, r ? strerrorname_np(errno) : "");
	struct attr got;
	memset(&got, 0, sizeof got);
	r = syscall(SYS_sched_getattr, 0, &got, sizeof got, 0);
	printf("sched_getattr: %ld policy %u\n", r, got.policy);
	printf("token %u\n", token);
	return 0;
}
