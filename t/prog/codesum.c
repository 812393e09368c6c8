/* codesum.c: sums the bytes of every executable mapping of its own
 * process (itself, the loader, libc) and prints the sum with an rdtsc
 * value, which differs on every run. Patched code must read the same in
 * replay as in rec. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

int main(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t sum = 0, bytes = 0;
	if (!f)
		return 1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 || perm[0] != 'r' ||
		    perm[2] != 'x' || strstr(line, "[v"))
			continue;
		for (const uint8_t *p = (const uint8_t *)lo; p < (const uint8_t *)hi; p++)
			sum = sum * 31 + *p;
		bytes += hi - lo;
	}
	fclose(f);
	printf("code %llu bytes sum %016llx tsc %llu\n", (unsigned long long)bytes,
	       (unsigned long long)sum, (unsigned long long)__rdtsc());
	return 0;
}
