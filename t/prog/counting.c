/* counting.c: two threads compute without syscalls, long enough to be
 * preempted, in loops of every kind software counting patches: short and
 * long backward branches, calls through a table of function pointers and
 * a switch (indirect jumps). One thread writes `target` twice deep inside
 * its loop, for watchpoints. Prints results that differ run to run.
 * Usage: counting [turns [threads]]  (hundred thousands of turns each
 * thread makes, 200; threads, 1 to 8, 2). The last thread writes target. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

static unsigned long turns, writer;
static unsigned seed;
/* after: stored right after the last store to target, on its line, so that a
 * watchpoint's stop (at the next instruction) shows that line. */
volatile unsigned long target, after;

static unsigned f0(unsigned x) { return x * 3 + 1; }
static unsigned f1(unsigned x) { return x ^ (x >> 3); }
static unsigned f2(unsigned x) { return x + 0x9e3779b9u; }
static unsigned f3(unsigned x) { return (x << 5) | (x >> 27); }
static unsigned (*const table[4])(unsigned) = { f0, f1, f2, f3 };

/* A switch the compiler makes a jump table of. */
static __attribute__((noinline)) unsigned step(unsigned x, unsigned k)
{
	switch (k & 7) {
	case 0: return x + 7;
	case 1: return x ^ 0x55;
	case 2: return x * 5;
	case 3: return x - 3;
	case 4: return x >> 1 | 1;
	case 5: return x + (x << 2);
	case 6: return ~x;
	default: return x + k;
	}
}

/* A short loop whose back-edge takes two instructions (inc, cmp) with it
 * into its trampoline: a breakpoint on the second (count_tight_cmp) is
 * refused, one on the first (count_tight_inc) stops (t8071). */
static __attribute__((noinline, noclone)) unsigned long tight(unsigned n)
{
	unsigned long r = 0;
	unsigned i = 0;
	__asm__ volatile("1: add $3, %0\n\t"
			 ".globl count_tight_inc\ncount_tight_inc:\n\t"
			 "inc %%ecx\n\t"
			 ".globl count_tight_cmp\ncount_tight_cmp:\n\t"
			 "cmp %%ecx, %%edx\n\t"
			 "jne 1b"
			 : "+r"(r), "+c"(i) : "d"(n) : "cc");
	return r;
}

static void *worker(void *arg)
{
	unsigned long id = (unsigned long)arg, acc = seed + id;
	int writes = id == writer;
	for (unsigned long i = 0; i < turns; i++) {
		unsigned x = acc;
		for (int j = 0; j < 3; j++)	/* a short loop: rel8 back-edge */
			x = x * 33 + j;
		acc += table[x & 3](x);		/* indirect call */
		acc = step(acc, i);		/* indirect jump */
		if (writes && i == turns / 3)
			target = acc;		/* first write */
		if (writes && i == 2 * turns / 3)
			target = acc + 1, after = i;	/* second write */
	}
	return (void *)acc;
}

int main(int argc, char **argv)
{
	pthread_t t[8];
	void *r[8];
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 2;
	turns = (argc > 1 ? strtoul(argv[1], NULL, 0) : 200) * 100000;
	if (n < 1 || n > 8 || getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return 1;
	writer = n - 1;
	for (unsigned long k = 0; k < n; k++)
		pthread_create(&t[k], NULL, worker, (void *)k);
	printf("seed %08x:", seed);
	for (unsigned long k = 0; k < n; k++) {
		pthread_join(t[k], &r[k]);
		printf(" %016lx", (unsigned long)r[k]);
	}
	printf(" target %016lx tight %lu\n", target, tight(1000 + (seed & 7)));
	return 0;
}
