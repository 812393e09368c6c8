/* filteracc.c: without CAP_SYS_ADMIN (dropped from the effective set)
 * and without no_new_privs, installing a seccomp filter fails with
 * EACCES and landlock_restrict_self with EPERM; with no_new_privs both
 * succeed (a filter that allows all, a ruleset that only handles making
 * FIFOs). Prints each answer after a random marker. */
#include <errno.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	printf("marker %u\n", marker);
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) == 0) {
		d[0].effective &= ~(1u << CAP_SYS_ADMIN);
		syscall(SYS_capset, &h, d);
	}
	printf("no_new_privs %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	errno = 0;
	long r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	printf("filter without no_new_privs: %ld %s\n", r, r ? strerrorname_np(errno) : "");
	errno = 0;
	r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
	printf("seccomp() without no_new_privs: %ld %s\n", r, r ? strerrorname_np(errno) : "");
	struct landlock_ruleset_attr attr = { .handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_FIFO };
	long fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	errno = 0;
	r = fd < 0 ? -2 : syscall(SYS_landlock_restrict_self, fd, 0);
	if (fd < 0)
		printf("landlock: none here\n");
	else
		printf("landlock without no_new_privs: %ld %s\n", r, r ? strerrorname_np(errno) : "");
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	printf("filter with no_new_privs: %ld\n", r);
	if (fd >= 0)
		printf("landlock with no_new_privs: %ld\n", syscall(SYS_landlock_restrict_self, fd, 0));
	return 0;
}
