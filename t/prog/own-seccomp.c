/* own-seccomp.c: installs its own seccomp filter, as sandboxes do:
 * getppid fails with EPERM, getpriority raises SIGSYS (caught, its
 * siginfo printed), the rest is allowed; bad arguments get EINVAL or
 * EFAULT. "kill" makes getpriority kill the process instead; "strict"
 * enters strict mode. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_sys(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char buf[96];
	int n = snprintf(buf, sizeof buf, "SIGSYS %d: syscall %d code %d data %d\n", sig,
			 si->si_syscall, si->si_code, si->si_errno);
	write(1, buf, n);
}

int main(int argc, char **argv)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	if (argc > 1 && !strcmp(argv[1], "strict")) {
		fflush(stdout);
		syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL);
		write(1, "strict\n", 7);
		syscall(SYS_exit, 0);
	}
	errno = 0;
	long rc = syscall(SYS_seccomp, 99, 0, NULL);
	printf("seccomp(99) = %ld errno %d\n", rc, errno);
	errno = 0;
	rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);
	printf("seccomp(FILTER, NULL) = %ld errno %d\n", rc, errno);
	unsigned action = SECCOMP_RET_TRAP;
	rc = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
	printf("GET_ACTION_AVAIL TRAP = %ld\n", rc);
	int kill_it = argc > 1 && !strcmp(argv[1], "kill");
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpriority, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, (kill_it ? SECCOMP_RET_KILL_PROCESS : SECCOMP_RET_TRAP) | 42),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof *f, f };
	struct sigaction sa = { .sa_sigaction = on_sys, .sa_flags = SA_SIGINFO };
	sigaction(SIGSYS, &sa, NULL);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	printf("PR_GET_SECCOMP before = %d\n", prctl(PR_GET_SECCOMP));
	rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
	printf("seccomp(FILTER) = %ld\n", rc);
	printf("PR_GET_SECCOMP after = %d\n", prctl(PR_GET_SECCOMP));
	errno = 0;
	rc = getppid();
	printf("getppid = %ld errno %d\n", rc, errno);
	fflush(stdout);
	rc = syscall(SYS_getpriority, 0, 0);
	printf("getpriority = %ld\n", rc);
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	return 0;
}
