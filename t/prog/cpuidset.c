/* cpuidset.c: asks the kernel to make CPUID fault (arch_prctl
 * ARCH_SET_CPUID 0) and back, and prints what it answered (ENODEV on a
 * machine without CPUID faulting), after a random marker. */
#include <asm/prctl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	printf("marker %u\n", marker);
	long r = syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
	printf("set_cpuid 0: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
	r = syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
	printf("set_cpuid 1: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
	printf("get_cpuid: %ld\n", (long)syscall(SYS_arch_prctl, ARCH_GET_CPUID, 0));
	return 0;
}
