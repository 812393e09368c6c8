/* clocks.c: reads the time every way a program can (clock_gettime through
 * the vDSO as libc does, gettimeofday, time, clock_gettime as a raw
 * syscall) and prints it, so its output differs on every run. */
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 3; i++) {
		struct timespec rt, mono, cpu, raw;
		struct timeval tv;
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		gettimeofday(&tv, NULL);
		time_t t = time(NULL);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &raw);
		printf("%d realtime %lld.%09ld monotonic %lld.%09ld cpu %lld.%09ld\n",
		       i, (long long)rt.tv_sec, rt.tv_nsec, (long long)mono.tv_sec,
		       mono.tv_nsec, (long long)cpu.tv_sec, cpu.tv_nsec);
		printf("%d gettimeofday %lld.%06ld time %lld syscall %lld.%09ld\n",
		       i, (long long)tv.tv_sec, (long)tv.tv_usec, (long long)t,
		       (long long)raw.tv_sec, raw.tv_nsec);
		/* Some work between readings so that they differ. */
		volatile unsigned long x = 0;
		for (unsigned long k = 0; k < 100000; k++)
			x += k * k;
	}
	return 0;
}
