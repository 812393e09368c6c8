/* dbhit.c: what counting a loop's turns with a hardware breakpoint costs
 * (a perf_event_open breakpoint that counts without stopping): the way
 * rewind does not find preemptions in counting loops, measured. */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* One turn of the loop: the address counted. */
__attribute__((noinline)) static void turn(volatile long *x)
{
	(*x)++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	volatile long x = 0;
	double t0 = now();
	for (long i = 0; i < n; i++)
		turn(&x);
	double plain = now() - t0;
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof a;
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_addr = (uintptr_t)turn;
	a.bp_len = sizeof(long);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("no perf breakpoint here: %s\n", strerror(errno));
		return 0;
	}
	t0 = now();
	for (long i = 0; i < n; i++)
		turn(&x);
	double counted = now() - t0;
	uint64_t hits = 0;
	if (read(fd, &hits, sizeof hits) != sizeof hits || hits != (uint64_t)n) {
		printf("the breakpoint counted %llu of %ld turns: its debug register does not fire\n",
		       (unsigned long long)hits, n);
		return 0;
	}
	printf("%ld turns: %.0f ns each, %.0f ns counted (%.0fx)\n", n, plain / n * 1e9,
	       counted / n * 1e9, counted / plain);
	return 0;
}
