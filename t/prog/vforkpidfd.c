/* vforkpidfd: clone with CLONE_VFORK|CLONE_PIDFD (clone3 with "clone3"):
 * the parent sleeps until the child exits (with a status that differs
 * per run), then waits for it through the pidfd the kernel wrote. */
#include <fcntl.h>
#include <linux/sched.h>
#include <stdint.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned r;
static char stack[65536] __attribute__((aligned(16)));

static int child(void *arg)
{
	(void)arg;
	syscall(SYS_exit, 1 + r % 200);
	return 0;
}

int main(int argc, char **argv)
{
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	int pidfd = -1;
	/* Files opened first: replay does not open them, so the kernel's
	 * pidfd there would get another number than the recorded one. */
	int fd1 = open("/dev/null", O_RDONLY), fd2 = open("/dev/null", O_RDONLY);
	if (fd1 < 0 || fd2 < 0)
		return 2;
	pid_t c;
	if (argc > 1 && !strcmp(argv[1], "clone3")) {
		struct clone_args ca = { .flags = CLONE_VFORK | CLONE_PIDFD,
					 .pidfd = (uintptr_t)&pidfd, .exit_signal = SIGCHLD };
		c = syscall(SYS_clone3, &ca, sizeof ca);
		if (c == 0)	/* on the parent's stack, which waits */
			syscall(SYS_exit, 1 + r % 200);
	} else {
		c = clone(child, stack + sizeof stack, CLONE_VFORK | CLONE_PIDFD | SIGCHLD, NULL,
			  &pidfd);
	}
	if (c < 0) {
		perror("clone");
		return 1;
	}
	siginfo_t si = { 0 };
	int rc = waitid(P_PIDFD, pidfd, &si, WEXITED);
	printf("token %08x: pidfd %d, waitid %d, child %s, status %d (want %u)\n", r,
	       pidfd, rc, si.si_pid == c ? "matches" : "differs",
	       si.si_status, 1 + r % 200);
	return 0;
}
