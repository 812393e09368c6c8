/* nosys.c: calls io_uring_setup and rseq directly and prints what they
 * return; under rec both must fail with ENOSYS. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_rseq
#define SYS_rseq 334
#endif

int main(void)
{
	static char params[120];	/* struct io_uring_params, zeroed */
	static struct { uint32_t w[8]; } __attribute__((aligned(32))) rs;
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	errno = 0;
	long ret = syscall(SYS_io_uring_setup, 8, params);
	int e = errno;
	printf("io_uring_setup = %ld errno %d (%s)\n", ret, ret < 0 ? e : 0,
	       ret < 0 ? strerror(e) : "ok");
	errno = 0;
	ret = syscall(SYS_rseq, &rs, sizeof rs, 0, 0x53053053);
	e = errno;
	printf("rseq = %ld errno %d (%s)\n", ret, ret < 0 ? e : 0, ret < 0 ? strerror(e) : "ok");
	return 0;
}
