/* kargs.c: calls whose kernel answer rec once missed, each printing
 * what the kernel wrote (after a random marker, so runs differ):
 * prctl and fcntl with junk in the high bits of an int argument (the
 * kernel ignores it), getsockopt's length written before it fails, the
 * size sched_setattr and perf_event_open write back with E2BIG, and a
 * child made by clone3 with CLONE_UNTRACED, a ptrace request the kernel
 * does not know and process_vm_writev to no process (rec refused all
 * three). */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define JUNK 0xbadc0ded00000000ull

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	printf("marker %u\n", marker);

	/* prctl: the option is an int. */
	int sub = -1;
	long r = syscall(SYS_prctl, JUNK | PR_GET_CHILD_SUBREAPER, &sub, 0, 0, 0);
	printf("prctl %ld subreaper %d\n", r, sub);

	/* fcntl: the command is an unsigned int (F_GETLK writes the lock). */
	char path[] = "kargs.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	unlink(path);
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	r = syscall(SYS_fcntl, fd, JUNK | F_GETLK, &fl);
	printf("fcntl %ld type %s\n", r, fl.l_type == F_UNLCK ? "unlocked" : "as asked");

	/* getsockopt: NETLINK_LIST_MEMBERSHIPS writes the length it needs
	 * and then fails on an optval it cannot write. */
	char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (nl >= 0 && none != MAP_FAILED) {
		unsigned group = 1 + marker % 8;
		setsockopt(nl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group);
		socklen_t len = 4;
		r = getsockopt(nl, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, none, &len);
		printf("getsockopt %ld len %u\n", r, len);
	} else {
		printf("getsockopt -\n");
	}

	/* sched_setattr: a size it does not know (E2BIG) is replaced by its own. */
	uint32_t attr[32];
	memset(attr, 0, sizeof attr);
	attr[0] = 8 + marker % 32;	/* under the first version's 48 */
	r = syscall(SYS_sched_setattr, 0, attr, 0);
	printf("sched_setattr %ld size %u\n", r, attr[0]);

	/* perf_event_open: the same for struct perf_event_attr's size. */
	struct perf_event_attr *pe = (struct perf_event_attr *)attr;
	memset(attr, 0, sizeof attr);
	pe->size = 1 + marker % 32;	/* under the first version's 64 */
	r = syscall(SYS_perf_event_open, pe, 0, -1, -1, 0);
	printf("perf_event_open %ld size %u\n", r, pe->size);

	/* clone3 with CLONE_UNTRACED: a child like any other, and the
	 * struct as the program wrote it, in both processes. */
	struct clone_args ca;
	memset(&ca, 0, sizeof ca);
	ca.flags = CLONE_UNTRACED;
	ca.exit_signal = SIGCHLD;
	fflush(stdout);
	long pid = syscall(SYS_clone3, &ca, sizeof ca);
	if (pid == 0) {
		printf("child %u flags %s\n", marker % 1000,
		       ca.flags == CLONE_UNTRACED ? "as written" : "changed");
		fflush(stdout);
		_exit(7);
	}
	int st = 0;
	if (pid > 0)
		waitpid(pid, &st, 0);
	printf("clone3 %s status %d flags %s\n", pid > 0 ? "child" : "failed",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	       ca.flags == CLONE_UNTRACED ? "as written" : "changed");

	/* A request no kernel has, and a process that cannot be: ESRCH
	 * before the kernel looks further. */
	errno = 0;
	r = syscall(SYS_ptrace, 0xdeadbeefbadc0dedull, -1, 0, 0);
	printf("ptrace %ld %s\n", r, errno == ESRCH ? "ESRCH" : "other");
	/* The pid is a pid_t to the kernel: this is the program itself,
	 * which it may not attach to. */
	errno = 0;
	r = syscall(SYS_ptrace, PTRACE_ATTACH, 0xdefaced00000000ull | (unsigned)getpid(), 0, 0);
	printf("ptrace attach self %ld %s\n", r, errno == EPERM ? "EPERM" : "other");
	struct iovec local = { &marker, sizeof marker }, remote = { &marker, sizeof marker };
	errno = 0;
	r = syscall(SYS_process_vm_writev, -1, &local, 1, &remote, 1, 0);
	printf("process_vm_writev %ld %s\n", r, errno == ESRCH ? "ESRCH" : "other");
	/* pid_max names no process either (ids stay below it). */
	long pid_max = 0;
	FILE *pm = fopen("/proc/sys/kernel/pid_max", "r");
	if (!pm || fscanf(pm, "%ld", &pid_max) != 1)
		pid_max = 4194304;
	if (pm)
		fclose(pm);
	errno = 0;
	r = syscall(SYS_process_vm_writev, pid_max, &local, 1, &remote, 1, 0);
	printf("process_vm_writev pid_max %ld %s\n", r, errno == ESRCH ? "ESRCH" : "other");
	return 0;
}
