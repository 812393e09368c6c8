/* capver.c: capget and capset with a version the kernel refuses: it
 * writes its own version back into the header (EINVAL). Then the
 * version 1 and 3 answers, a capset that drops one capability, and a
 * random token. Prints what it got. */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	struct __user_cap_header_struct h = { tok | 1, 0 };
	struct __user_cap_data_struct d[2];
	long rc = syscall(SYS_capget, &h, d);
	printf("capget bad version = %ld (%s), header now %#x\n", rc, strerror(errno), h.version);
	h.version = 0;
	rc = syscall(SYS_capset, &h, d);
	printf("capset bad version = %ld (%s), header now %#x\n", rc, strerror(errno), h.version);
	h.version = _LINUX_CAPABILITY_VERSION_1;
	memset(d, 0, sizeof d);
	rc = syscall(SYS_capget, &h, d);
	printf("capget v1 = %ld, effective %#x\n", rc, d[0].effective);
	h.version = _LINUX_CAPABILITY_VERSION_3;
	rc = syscall(SYS_capget, &h, d);
	printf("capget v3 = %ld, effective %#x %#x\n", rc, d[0].effective, d[1].effective);
	d[0].effective &= ~(1u << CAP_CHOWN);
	rc = syscall(SYS_capset, &h, d);
	memset(d, 0, sizeof d);
	syscall(SYS_capget, &h, d);
	printf("capset = %ld, effective now %#x\n", rc, d[0].effective);
	return 0;
}
