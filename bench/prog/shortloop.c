/* shortloop.c: bench workload for counting a 2-byte back edge: a tight
 * loop of register arithmetic, no syscall, closed by a jnz rel8. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	/* Each turn passes the back edge once: argv[1] is the number of
	 * edges executed (bench/run.sh divides by it). */
	long n = argc > 1 ? atol(argv[1]) : 650000000L;
	uint64_t x = 88172645463325252ull, a = 6364136223846793005ull;
	if (n < 1)
		n = 1;
	/* x = x * a + n, n counted down; the jnz in its 2-byte form (the
	 * patcher moves the sub before it into the trampoline). */
	__asm__ volatile("1:\n\t"
			 "imulq %[a], %[x]\n\t"
			 "addq %[n], %[x]\n\t"
			 "subq $1, %[n]\n\t"
			 ".byte 0x75, 1b - . - 1\n\t"	/* jnz 1b */
			 : [x] "+r"(x), [n] "+r"(n)
			 : [a] "r"(a)
			 : "cc");
	printf("%llu\n", (unsigned long long)x);
	return 0;
}
