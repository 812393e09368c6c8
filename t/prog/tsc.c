/* tsc.c: reads the time-stamp counter with rdtsc and rdtscp (inline asm)
 * and prints the values, which differ on every run. */
#include <stdint.h>
#include <stdio.h>

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t rdtscp(uint32_t *aux)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*aux));
	return (uint64_t)hi << 32 | lo;
}

int main(void)
{
	uint64_t prev = rdtsc();
	for (int i = 0; i < 5; i++) {
		uint32_t aux;
		uint64_t a = rdtsc();
		uint64_t b = rdtscp(&aux);
		printf("%d rdtsc %llu rdtscp %llu aux %u delta %llu\n", i,
		       (unsigned long long)a, (unsigned long long)b, aux,
		       (unsigned long long)(b - prev));
		prev = b;
	}
	return 0;
}
