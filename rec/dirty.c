/* dirty.c: makes and keeps a userfaultfd in write-protect async mode for
 * each preempted process, so preemption records cost what changed (see
 * dirty.h); the pages are read and protected again in lib/pos.c. */
#include "dirty.h"
#include "bufabi.h"
#include "pagemap.h"
#include "probe.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* One per process tried: its userfaultfd, or -1 when it could not have
 * one (then it is not tried again until it executes another program). */
static struct { pid_t tgid; int fd; } procs[256];
static int nprocs;

static int find(pid_t tgid)
{
	for (int i = 0; i < nprocs; i++)
		if (procs[i].tgid == tgid)
			return i;
	return -1;
}

int dirty_fd(pid_t tgid)
{
	int i = find(tgid);
	return i < 0 ? -1 : procs[i].fd;
}

void dirty_forget(pid_t tgid)
{
	int i = find(tgid);
	if (i < 0)
		return;
	if (procs[i].fd >= 0)
		close(procs[i].fd);
	procs[i] = procs[--nprocs];
}

/* Signals that came for the thread while calls were injected, for rec
 * to deliver later as it does any held signal (dirty_setup's stash). */
static siginfo_t *held;
static int *nheld, maxheld;

/* Run syscall nr(a) in stopped thread p, through the syscall instruction
 * at address at, following it stop by stop (the filter may let it through
 * without a seccomp stop). Returns 0 with *ret its result and p at its
 * exit stop, its registers put back to r; -1 when p is gone (its exit is
 * left for rec's wait) or did not stop as expected. */
static int inject(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
		  const uint64_t a[6], int64_t *ret)
{
	struct user_regs_struct inj = *r;
	inj.rip = at;
	inj.orig_rax = -1;
	inj.rax = nr;
	pt_set_args(&inj, a);
	pt_setregs(p, &inj);
	int rc = -1;
	for (int i = 0; i < 16; i++) {
		if (ptrace(PTRACE_SYSCALL, p->pid, 0, 0) < 0)
			return -1;
		siginfo_t w;
		int st;
		/* Look first: an exit is rec's to reap. */
		memset(&w, 0, sizeof w);
		while (waitid(P_PID, p->pid, &w, WEXITED | WSTOPPED | __WALL | WNOWAIT) < 0)
			if (errno != EINTR)
				return -1;
		if (w.si_code != CLD_TRAPPED)
			return -1;
		while (waitpid(p->pid, &st, __WALL) < 0)
			if (errno != EINTR)
				return -1;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80) ||
		    (st >> 8) == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			struct __ptrace_syscall_info info;
			if (ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, sizeof info, &info) <= 0)
				break;
			if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
				*ret = info.exit.rval;
				rc = 0;
				break;
			}
			continue;
		}
		/* A signal came before the call ran: held for later (rec's
		 * own preempting SIGSTOP is dropped), and the call made. */
		siginfo_t si;
		if (ptrace(PTRACE_GETSIGINFO, p->pid, 0, &si) < 0)
			break;	/* a group-stop */
		if (si.si_signo == SIGSTOP && si.si_code == SI_TKILL && si.si_pid == getpid())
			continue;
		int k;
		for (k = 0; k < *nheld && held[k].si_signo != si.si_signo; k++)
			;
		if (k == *nheld && *nheld < maxheld)
			held[(*nheld)++] = si;
	}
	pt_setregs(p, r);
	return rc;
}

int dirty_setup(struct pt_proc *p, pid_t tgid, siginfo_t *stash, int *nstash, int max)
{
	if (find(tgid) >= 0 || nprocs == (int)(sizeof procs / sizeof *procs) ||
	    !probe_has(PROBE_UFFD_WP) || pt_untraced_ip != BUF_UNTRACED_IP)
		return 0;
	struct user_regs_struct r;
	pt_getregs(p, &r);
	if ((int64_t)r.orig_rax != -1)
		return 0;	/* in a syscall: injecting would lose its restart */
	procs[nprocs].tgid = tgid;
	procs[nprocs++].fd = -1;
	held = stash;
	nheld = nstash;
	maxheld = max;
	static const uint8_t insn[2] = { 0x0f, 0x05 };
	uint8_t code[2], save[2];
	int mapped = 0, rc;
	int64_t ret = -1, fd = -1;
	/* The only place rec's filter lets userfaultfd through is the
	 * syscall instruction of the buffering library's page; without the
	 * library, one is mapped there for the time of the call, by a call
	 * made at the thread's own instruction pointer. */
	if (pt_read(p, BUF_ADDR, code, 2) != 2) {
		uint64_t a[6] = { BUF_ADDR, BUF_PAGE, PROT_READ | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0 };
		if (pt_read(p, r.rip, save, 2) != 2 || pt_write(p, r.rip, insn, 2) < 0)
			return 0;
		rc = inject(p, &r, r.rip, SYS_mmap, a, &ret);
		pt_write(p, r.rip, save, 2);
		if (rc < 0)
			return 1;
		if ((uint64_t)ret != BUF_ADDR)
			return 1;
		mapped = 1;
		pt_write(p, BUF_ADDR, insn, 2);
	} else if (memcmp(code, insn, 2)) {
		return 0;
	}
	/* User mode only: an ordinary user may have that one, and the
	 * async mode resolves every fault in the kernel anyway. */
	uint64_t a[6] = { O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY };
	rc = inject(p, &r, BUF_ADDR, SYS_userfaultfd, a, &fd);
	if (rc == 0 && fd >= 0) {
		int pidfd = syscall(SYS_pidfd_open, tgid, 0);
		if (pidfd >= 0) {
			procs[nprocs - 1].fd = syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
			close(pidfd);
		}
		uint64_t c[6] = { (uint64_t)fd };
		rc = inject(p, &r, BUF_ADDR, SYS_close, c, &ret);
	}
	if (mapped && rc == 0) {
		uint64_t u[6] = { BUF_ADDR, BUF_PAGE };
		rc = inject(p, &r, BUF_ADDR, SYS_munmap, u, &ret);
	}
	int ufd = procs[nprocs - 1].fd;
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC };
	if (ufd >= 0 && (rc != 0 || ioctl(ufd, UFFDIO_API, &api) < 0)) {
		close(ufd);
		procs[nprocs - 1].fd = -1;
	}
	return 1;
}
