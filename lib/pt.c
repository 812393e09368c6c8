/* pt.c: ptrace plumbing: spawning a tracee under the seccomp filter that
 * the syscall table describes, stop decoding, registers and memory. */
#include "pt.h"
#include "sys.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <elf.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

int pt_untraced_queries;
int pt_trace_all;

int pt_let_call(long nr, const uint64_t a[6])
{
	return pt_untraced_queries && nr == SYS_rt_sigaction && a[1] == 0;
}

int pt_untraced_call(long nr, const uint64_t a[6])
{
	return !pt_trace_all && pt_let_call(nr, a);
}

int pt_at_entry(struct pt_proc *p)
{
	struct __ptrace_syscall_info si;
	return ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, sizeof si, &si) > 0 &&
	       si.op == PTRACE_SYSCALL_INFO_ENTRY;
}

/* Every syscall stops the tracer, except those the table says the
 * program must see fail with ENOSYS (rseq, io_uring, ...), and with
 * pt_untraced_queries rt_sigaction that only asks (not with
 * pt_trace_all). So do those of the 32-bit entries and x32's numbers
 * (invalid ones such as -10 too), which libseccomp would kill: rec
 * answers or refuses them. */
static scmp_filter_ctx build_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRACE(0));
	if (!ctx || seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(0)) < 0)
		die(EXIT_TRACE, "seccomp_init failed");
	for (long nr = 0; nr < SYS_MAX; nr++) {
		const struct sys_entry *e = sys_lookup(nr);
		if (e && e->class == C_NOSYS &&
		    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) < 0)
			die(EXIT_TRACE, "seccomp rule for %s failed", e->name);
	}
	if (pt_untraced_queries && !pt_trace_all &&
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SYS_rt_sigaction, 1, SCMP_A1(SCMP_CMP_EQ, 0)) < 0)
		die(EXIT_TRACE, "seccomp rule for rt_sigaction failed");
	return ctx;
}

static sigset_t ignored;	/* see pt_note_ignored() */
/* With start_exact: the dispositions and mask pt_spawn's program starts
 * with (see pt_start_signals()); without, only the four signals of
 * ignored are set (traces from before rec noted them all). */
static int start_exact;
static uint64_t start_ign, start_mask;

const sigset_t *pt_note_ignored(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGHUP, SIGPIPE };
	sigemptyset(&ignored);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa;
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&ignored, sigs[i]);
	}
	return &ignored;
}

void pt_note_start_signals(uint64_t *ign, uint64_t *mask)
{
	pt_note_ignored();
	sigset_t m;
	*ign = *mask = 0;
	for (int sig = 1; sig <= 64; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			*ign |= 1ull << (sig - 1);
	}
	if (sigprocmask(SIG_BLOCK, NULL, &m) == 0)
		for (int sig = 1; sig <= 64; sig++)
			if (sigismember(&m, sig) == 1)
				*mask |= 1ull << (sig - 1);
	pt_start_signals(*ign, *mask);
}

void pt_start_signals(uint64_t ign, uint64_t mask)
{
	start_exact = 1;
	start_ign = ign;
	start_mask = mask;
}

/* In pt_spawn's child: the dispositions and mask the program starts with. */
static void child_signals(void)
{
	if (!start_exact) {
		signal(SIGINT, sigismember(&ignored, SIGINT) ? SIG_IGN : SIG_DFL);
		signal(SIGQUIT, sigismember(&ignored, SIGQUIT) ? SIG_IGN : SIG_DFL);
		signal(SIGPIPE, sigismember(&ignored, SIGPIPE) ? SIG_IGN : SIG_DFL);
		signal(SIGHUP, sigismember(&ignored, SIGHUP) ? SIG_IGN : SIG_DFL);
		return;
	}
	/* Raw calls: libc refuses its own two (32 and 33), which a
	 * program's parent may still have ignored. */
	for (int sig = 1; sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		struct { void *h; unsigned long flags; void *restorer; uint64_t mask; } ka = {
			(start_ign >> (sig - 1)) & 1 ? SIG_IGN : SIG_DFL, 0, NULL, 0 };
		syscall(SYS_rt_sigaction, sig, &ka, NULL, 8);
	}
}

uint64_t pt_untraced_ip;

/* The filter as BPF, with pt_untraced_ip's exception first: libseccomp
 * cannot test the instruction pointer. */
static struct sock_fprog export_filter(scmp_filter_ctx ctx)
{
	int fd = memfd_create("rewind-filter", MFD_CLOEXEC);
	struct stat st;
	if (fd < 0 || seccomp_export_bpf(ctx, fd) < 0 || fstat(fd, &st) < 0)
		die(EXIT_TRACE, "cannot export the seccomp filter: %s", strerror(errno));
	size_t n = st.st_size / sizeof(struct sock_filter);
	uint32_t lo = (uint32_t)pt_untraced_ip, hi = pt_untraced_ip >> 32;
	struct sock_filter pre[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	size_t np = sizeof pre / sizeof pre[0];
	struct sock_filter *f = xmalloc((np + n) * sizeof *f);
	memcpy(f, pre, sizeof pre);
	if (pread(fd, f + np, n * sizeof *f, 0) != (ssize_t)(n * sizeof *f))
		die(EXIT_TRACE, "cannot read the exported seccomp filter");
	close(fd);
	return (struct sock_fprog){ .len = np + n, .filter = f };
}

pid_t pt_spawn_pgid;

pid_t pt_group_holder(void)
{
	int keep[2], rep[2];
	if (pipe2(keep, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(rep, O_CLOEXEC) < 0) {
		close(keep[0]);
		close(keep[1]);
		return -1;
	}
	fflush(NULL);
	pid_t a = fork();
	if (a == 0) {
		/* A grandchild, so that the caller's waits never see it. */
		pid_t h = fork();
		if (h == 0) {
			setpgid(0, 0);
			for (int sig = 1; sig < 65; sig++)
				signal(sig, SIG_IGN);
			for (int fd = 0; fd < 1024; fd++)
				if (fd != keep[0])
					close(fd);
			char c;
			while (read(keep[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		if (h > 0)
			setpgid(h, h);	/* before the caller uses it */
		(void)!write(rep[1], &h, sizeof h);
		_exit(0);
	}
	pid_t h = -1;
	if (a > 0) {
		if (read(rep[0], &h, sizeof h) != sizeof h)
			h = -1;
		waitpid(a, NULL, 0);
	}
	close(rep[0]);
	close(rep[1]);
	close(keep[0]);		/* keep[1] stays open, close-on-exec, while we live */
	if (h <= 0) {
		close(keep[1]);
		errno = EAGAIN;
		return -1;
	}
	return h;
}

/* The tracer holds a descriptor for each thread it traces (/proc/TID/mem):
 * a program of 1,500 threads outgrows the soft limit of 1,024 that an
 * ordinary user mostly starts with (rr's thread_stress, as nobody:
 * "Too many open files" in replay). Raised to the hard limit in the
 * tracer only, after the fork: the program starts with what it was given. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);	/* a failure leaves the old limit */
	}
}

void pt_spawn(struct pt_proc *p, const char *path, char *const argv[], char *const envp[],
	      const char *dir, int (*before_exec)(void))
{
	scmp_filter_ctx ctx = build_filter();
	struct sock_fprog prog = { 0, NULL };
	if (pt_untraced_ip)
		prog = export_filter(ctx);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die(EXIT_TRACE, "fork: %s", strerror(errno));
	if (pid == 0) {
		child_signals();
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			die(EXIT_TRACE, "ptrace(TRACEME): %s", strerror(errno));
		if (personality(ADDR_NO_RANDOMIZE) < 0)
			die(EXIT_TRACE, "personality: %s", strerror(errno));
		if (dir && chdir(dir) < 0)
			die(EXIT_TRACE, "%s: %s", dir, strerror(errno));
		/* A process group of its own (or pt_spawn_pgid's):
		 * kill(0, sig) and killpg() by the program reach its own
		 * tree, never the tracer. */
		setpgid(0, pt_spawn_pgid);
		raise(SIGSTOP);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			die(EXIT_TRACE, "prctl(NO_NEW_PRIVS): %s", strerror(errno));
		int rc = prog.len ? (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0 ? -errno : 0)
				  : seccomp_load(ctx);
		if (rc < 0)
			die(EXIT_TRACE, "seccomp_load: %s", strerror(-rc));
		/* Last, so that nothing of ours (sanitizer runtimes) meets
		 * what it arms (a trapping rdtsc) before the program does. */
		if (before_exec && before_exec() < 0)
			die(EXIT_TRACE, "before execve: %s", strerror(errno));
		if (start_exact) {	/* the mask last: as execve keeps it */
			uint64_t m = start_mask & ~(1ull << (SIGKILL - 1) | 1ull << (SIGSTOP - 1));
			syscall(SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, 8);
		}
		execve(path, argv, envp);
		die(127, "%s: %s", path, strerror(errno));
	}
	seccomp_release(ctx);
	raise_fd_limit();
	setpgid(pid, pt_spawn_pgid ? pt_spawn_pgid : pid);
	free(prog.filter);
	p->pid = pid;
	p->memfd = -1;
	int st;
	if (pt_wait(p, &st, NULL) < 0 || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP)
		die(EXIT_TRACE, "tracee did not stop at start");
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PT_OPTIONS) < 0)
		die(EXIT_TRACE, "ptrace(SETOPTIONS): %s", strerror(errno));
	/* Let the child through its own last syscalls up to the execve. */
	for (int sig = 0;;) {
		pt_resume(p, 0, sig);
		sig = 0;
		if (pt_wait(p, &st, NULL) < 0)
			die(EXIT_TRACE, "wait: %s", strerror(errno));
		enum pt_stop k = pt_classify(st);
		if (k == PS_EXITED)
			exit(WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_TRACE);
		if (k == PS_SIGNAL)
			sig = WSTOPSIG(st);
		if (k != PS_SECCOMP)
			continue;
		struct user_regs_struct r;
		pt_getregs(p, &r);
		if (r.orig_rax == (uint64_t)sys_number("execve"))
			break;
	}
	pt_reopen_mem(p);
}

int pt_wait(struct pt_proc *p, int *status, int *interrupted)
{
	for (;;) {
		int r = waitpid(p->pid, status, __WALL);
		if (r >= 0)
			return r;
		if (errno != EINTR)
			return -1;
		if (interrupted) {
			*interrupted = 1;
			return -1;
		}
	}
}

enum pt_stop pt_classify(int st)
{
	if (WIFEXITED(st) || WIFSIGNALED(st))
		return PS_EXITED;
	if (!WIFSTOPPED(st))
		return PS_OTHER;
	if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8)))
		return PS_SECCOMP;
	if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
		return PS_EXEC;
	if (WSTOPSIG(st) == (SIGTRAP | 0x80))
		return PS_SYSEXIT;
	if (st >> 16)
		return PS_OTHER;
	return PS_SIGNAL;
}

int pt_regs_cache;

/* The registers of one stopped thread as last read or set (see
 * pt_regs_cache): rec asks for the same thread's registers several times
 * a stop, and each request costs a ptrace call. */
static struct {
	pid_t pid;	/* 0: empty */
	struct user_regs_struct r;
} known;

void pt_regs_forget(pid_t pid)
{
	if (known.pid == pid || pid <= 0)
		known.pid = 0;
}

void pt_getregs(struct pt_proc *p, struct user_regs_struct *r)
{
	if (pt_getregs_alive(p, r) < 0)
		die(EXIT_TRACE, "ptrace(GETREGS) of %d: %s", p->pid, strerror(ESRCH));
}

int pt_getregs_alive(struct pt_proc *p, struct user_regs_struct *r)
{
	if (pt_regs_cache && known.pid == p->pid && p->pid > 0) {
		*r = known.r;
		return 0;
	}
	if (ptrace(PTRACE_GETREGS, p->pid, 0, r) == 0) {
		if (pt_regs_cache) {
			known.pid = p->pid;
			known.r = *r;
		}
		return 0;
	}
	if (errno == ESRCH)
		return -1;
	die(EXIT_TRACE, "ptrace(GETREGS) of %d: %s", p->pid, strerror(errno));
}

void pt_setregs(struct pt_proc *p, const struct user_regs_struct *r)
{
	/* ESRCH: killed meanwhile (SIGKILL from outside), as pt_resume. */
	if (ptrace(PTRACE_SETREGS, p->pid, 0, r) < 0) {
		pt_regs_forget(p->pid);
		if (errno != ESRCH)
			die(EXIT_TRACE, "ptrace(SETREGS): %s", strerror(errno));
		return;
	}
	/* The kernel may adjust what it was given (flags, segments):
	 * read anew. */
	pt_regs_forget(p->pid);
}

int pt_block_signal(struct pt_proc *p, int sig)
{
	uint64_t mask, bit = 1ull << (sig - 1);
	if (ptrace(PTRACE_GETSIGMASK, p->pid, sizeof mask, &mask) < 0)
		return -1;
	if (mask & bit)
		return 0;
	mask |= bit;
	return ptrace(PTRACE_SETSIGMASK, p->pid, sizeof mask, &mask) < 0 ? -1 : 1;
}

void pt_resume(struct pt_proc *p, int how, int sig)
{
	static const int req[] = { PTRACE_CONT, PTRACE_SYSCALL, PTRACE_SINGLESTEP, PTRACE_CONT };
	if (how == RESUME_CONT && p->entries)
		how = RESUME_SYSCALL;
	p->at_entry = 0;
	pt_regs_forget(p->pid);
	if (ptrace(req[how], p->pid, 0, sig) < 0 && errno != ESRCH)
		die(EXIT_TRACE, "ptrace(resume): %s", strerror(errno));
}

void pt_reopen_mem(struct pt_proc *p)
{
	char path[64];
	if (p->memfd >= 0)
		close(p->memfd);
	snprintf(path, sizeof path, "/proc/%d/mem", p->pid);
	p->memfd = open(path, O_RDWR | O_CLOEXEC);
	if (p->memfd < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
}

void pt_share_mem(struct pt_proc *p, const struct pt_proc *same)
{
	if (same->memfd < 0) {
		pt_reopen_mem(p);
		return;
	}
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = fcntl(same->memfd, F_DUPFD_CLOEXEC, 0);
	if (p->memfd < 0)
		die(EXIT_TRACE, "/proc/%d/mem: %s", p->pid, strerror(errno));
}

ssize_t pt_read(struct pt_proc *p, uint64_t addr, void *buf, size_t n)
{
	struct iovec l = { buf, n }, r = { (void *)addr, n };
	ssize_t k = process_vm_readv(p->pid, &l, 1, &r, 1, 0);
	if (k == (ssize_t)n)
		return k;
	/* Partly unreadable, or PROT_NONE: /proc/PID/mem reads with force. */
	size_t done = 0;
	while (done < n) {
		k = pread(p->memfd, (char *)buf + done, n - done, addr + done);
		if (k <= 0)
			break;
		done += k;
	}
	return done ? (ssize_t)done : -1;
}

int pt_write(struct pt_proc *p, uint64_t addr, const void *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t k = pwrite(p->memfd, (const char *)buf + done, n - done, addr + done);
		if (k <= 0)
			return -1;
		done += k;
	}
	return 0;
}

ssize_t pt_proc_read(pid_t pid, const char *file, char *buf, size_t len)
{
	char path[64] = "/proc/", digits[16];
	size_t at = 6, fl = strlen(file);
	int nd = 0;
	for (unsigned v = (unsigned)pid; v; v /= 10)
		digits[nd++] = '0' + v % 10;
	if (nd == 0 || fl > sizeof path - at - nd - 2 || len == 0)
		return -1;
	while (nd)
		path[at++] = digits[--nd];
	path[at++] = '/';
	memcpy(path + at, file, fl + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

char *pt_stat(pid_t pid, char *buf, size_t len)
{
	if (pt_proc_read(pid, "stat", buf, len) < 0)
		return NULL;
	/* The command name may hold spaces and parentheses: it ends at the
	 * last ')'. */
	char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] ? p + 2 : NULL;
}

/* The line of the /proc file path that starts with field, into line: what
 * follows field in it, or NULL. */
static char *proc_field(const char *path, const char *field, char *line, size_t len)
{
	FILE *f = fopen(path, "re");
	char *v = NULL;
	size_t fl = strlen(field);
	while (f && !v && fgets(line, len, f))
		if (!strncmp(line, field, fl))
			v = line + fl;
	if (f)
		fclose(f);
	return v;
}

char *pt_status(pid_t pid, const char *field, char *line, size_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	return proc_field(path, field, line, len);
}

long long pt_fdinfo(pid_t pid, uint64_t fd, const char *field, int base)
{
	char path[64], line[256], *end;
	if (fd > INT32_MAX)
		return -1;
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", pid, (int)fd);
	const char *s = proc_field(path, field, line, sizeof line);
	if (!s)
		return -1;
	long long v = strtoll(s, &end, base);
	return end == s ? -1 : v;
}

/* The signals pending for the stopped thread p, its own (set[0]) and
 * its process's (set[1]): at a syscall exit, what the kernel delivers
 * before it runs user code again. Blocked ones are left in
 * (PTRACE_GETSIGMASK gives the mask a sigsuspend restores, not the one
 * it waits with): one that waits for its unblocking is delivered after
 * another call, with other registers. A queue longer than it reads only
 * leaves signals out, which is safe (do_signal holds those). */
void pt_pending(struct pt_proc *p, uint64_t set[2])
{
	siginfo_t q[16];
	for (int shared = 0; shared < 2; shared++) {
		struct __ptrace_peeksiginfo_args a = { 0, shared ? PTRACE_PEEKSIGINFO_SHARED : 0, 16 };
		long n = ptrace(PTRACE_PEEKSIGINFO, p->pid, &a, q);
		set[shared] = 0;
		for (long i = 0; i < n; i++)
			if (q[i].si_signo > 0 && q[i].si_signo <= 64)
				set[shared] |= 1ull << (q[i].si_signo - 1);
	}
}

void pt_wait_zombie(pid_t tid)
{
	char buf[512];
	for (int i = 0; i < 10000; i++) {
		const char *s = pt_stat(tid, buf, sizeof buf);
		if (!s || *s == 'Z' || *s == 'X')
			return;
		usleep(1000);
	}
}

int pt_cap_eff(pid_t pid, int cap)
{
	uint64_t caps;
	return pt_status_hex(pid, "CapEff:", &caps) < 0 ? -1 : (int)(caps >> cap & 1);
}

int pt_no_process(pid_t pid)
{
	return pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH);
}

int pt_status_hex(pid_t pid, const char *field, uint64_t *v)
{
	char line[256];
	const char *s = pt_status(pid, field, line, sizeof line);
	if (!s)
		return -1;
	*v = strtoull(s, NULL, 16);
	return 0;
}

/* SIGKILL shows pending until the thread takes it, then PF_EXITING
 * until it is a zombie. */
int pt_dying(pid_t pid)
{
	char buf[512];
	const char *s = pt_stat(pid, buf, sizeof buf);
	if (!s)
		return 1;
	unsigned flags = 0;
	char state = 0;
	int d = sscanf(s, "%c %*d %*d %*d %*d %*d %u", &state, &flags) != 2 ||
		state == 'Z' || state == 'X' || (flags & 0x4);	/* PF_EXITING */
	uint64_t pend = 0, shared = 0;
	if (pt_status_hex(pid, "SigPnd:", &pend) < 0 || pt_status_hex(pid, "ShdPnd:", &shared) < 0)
		return 1;
	return d || ((pend | shared) >> (SIGKILL - 1) & 1);
}

ssize_t pt_read_str(struct pt_proc *p, uint64_t addr, char *buf, size_t max)
{
	size_t len = 0;
	while (len < max - 1) {
		/* Read up to the end of the page so we never cross into an
		 * unmapped one past the NUL. */
		size_t chunk = 4096 - ((addr + len) & 4095);
		if (chunk > max - 1 - len)
			chunk = max - 1 - len;
		ssize_t k = pt_read(p, addr + len, buf + len, chunk);
		if (k <= 0) {
			buf[len] = 0;
			return len ? (ssize_t)len : -1;
		}
		char *z = memchr(buf + len, 0, k);
		if (z)
			return z - buf;
		len += k;
	}
	buf[len] = 0;
	return len;
}

void pt_args(const struct user_regs_struct *r, uint64_t a[6])
{
	a[0] = r->rdi; a[1] = r->rsi; a[2] = r->rdx;
	a[3] = r->r10; a[4] = r->r8; a[5] = r->r9;
}

void pt_set_args(struct user_regs_struct *r, const uint64_t a[6])
{
	r->rdi = a[0]; r->rsi = a[1]; r->rdx = a[2];
	r->r10 = a[3]; r->r8 = a[4]; r->r9 = a[5];
}

int pt_set_dr(pid_t tid, int i, uint64_t v)
{
	return ptrace(PTRACE_POKEUSER, tid, offsetof(struct user, u_debugreg) + i * 8, v) < 0 ? -1 : 0;
}

int pt_get_dr(pid_t tid, int i, uint64_t *v)
{
	errno = 0;
	long r = ptrace(PTRACE_PEEKUSER, tid, offsetof(struct user, u_debugreg) + i * 8, 0);
	if (errno)
		return -1;
	*v = (uint64_t)r;
	return 0;
}

ssize_t pt_getxstate(struct pt_proc *p, void *buf, size_t max)
{
	struct iovec iov = { buf, max };
	if (ptrace(PTRACE_GETREGSET, p->pid, NT_X86_XSTATE, &iov) < 0)
		return -1;
	return iov.iov_len;
}

int pt_setxstate(struct pt_proc *p, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };
	return ptrace(PTRACE_SETREGSET, p->pid, NT_X86_XSTATE, &iov) < 0 ? -1 : 0;
}

/* The leader's end is reported only once every other thread of its
 * group is reaped, and those are ours to reap (traced): each is waited
 * for by its id, or waitpid(leader) waits for ever. */
void pt_kill(struct pt_proc *p)
{
	int st;
	char path[64];
	kill(p->pid, SIGKILL);
	snprintf(path, sizeof path, "/proc/%d/task", p->pid);
	for (;;) {
		pid_t w = waitpid(p->pid, &st, __WALL | WNOHANG);
		if (w < 0 || (w == p->pid && (WIFEXITED(st) || WIFSIGNALED(st))))
			return;
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			pid_t tid = atoi(de->d_name);
			if (tid > 0 && tid != p->pid)
				waitpid(tid, &st, __WALL | WNOHANG);
		}
		if (d)
			closedir(d);
		usleep(1000);
	}
}
