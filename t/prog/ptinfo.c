/* ptinfo: asks for PTRACE_GET_SYSCALL_INFO (0x420e, 16910) as strace does
 * at its start, here of a process it does not trace (natively ESRCH,
 * and under rec too); tdump names the request. */
#include <errno.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <unistd.h>

int main(void)
{
	unsigned char info[88];
	long r = ptrace((enum __ptrace_request)0x420e, getppid(), sizeof info, info);
	printf("PTRACE_GET_SYSCALL_INFO: %ld errno %d\n", r, r < 0 ? errno : 0);
	return 0;
}
