/* probe.c: finds out, by trying each in a throw-away child, which CPU and
 * kernel features a tracer can rely on here; environment variables switch
 * features off so that every fallback can be tested on any machine. */
#include "probe.h"
#include "pagemap.h"
#include "pt.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cpuid.h>
#include <linux/filter.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <asm/prctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#endif
#ifndef ARCH_SET_CPUID
#define ARCH_SET_CPUID 0x1012
#endif

static const struct {
	const char *name, *env, *yes, *no;
} feat[PROBE_N] = {
	[PROBE_TSC_TRAP] = { "rdtsc trap", "REWIND_NO_TSC_TRAP",
		"rdtsc and rdtscp fault (PR_SET_TSC); rec records their values",
		"rdtsc and rdtscp found in code when it is mapped or made executable are "
		"patched to ud2 of the same length; code written into memory already "
		"executable (a JIT) is not covered" },
	[PROBE_DEBUGREGS] = { "debug registers", "REWIND_NO_DEBUGREGS",
		"gdb watchpoints use debug registers (DR0-DR3)",
		"gdb watchpoints use page protection: the watched page faults and each "
		"access is checked" },
	[PROBE_PERF_BP] = { "perf breakpoints", "REWIND_NO_PERF_BP",
		"the kernel counts breakpoint and watchpoint hits without stopping "
		"(fast reverse-stepi and reverse-continue)",
		"hits are counted with a stop each (int3 or page protection): "
		"reverse execution over hot code is slower" },
	[PROBE_CPUID_FAULT] = { "cpuid faulting", "REWIND_NO_CPUID_FAULT",
		"used when counting (the default): replay gives CPUID the answers of the CPU "
		"rec ran the program on where its own differ; with REWIND_CPUID_FAULT=1 CPUID "
		"faults under rec too (arch_prctl ARCH_SET_CPUID), which records its answers, "
		"the per-CPU APIC ids zeroed",
		"the recording CPU's features are kept in the trace and replay refuses a "
		"CPU that lacks one" },
	[PROBE_SUD] = { "syscall user dispatch", "REWIND_NO_SUD",
		"not used: rec's preloaded library makes the common calls without a stop",
		"not needed: rec's preloaded library makes the common calls without a stop" },
	[PROBE_SECCOMP_TRAP] = { "seccomp SIGSYS", "REWIND_NO_SECCOMP_TRAP",
		"not used: rec's preloaded library makes the common calls without a stop",
		"not needed: rec's preloaded library makes the common calls without a stop" },
	[PROBE_UFFD_WP] = { "write tracking", "REWIND_NO_UFFD_WP",
		"a preemption records the memory written since the last one "
		"(userfaultfd write-protect, PAGEMAP_SCAN)",
		"a preemption hashes all of the process's writable memory" },
};

static volatile uint32_t probe_var;

/* waitpid, again when a signal of rec's (its timer) ends the wait. */
static pid_t wait_child(pid_t pid, int *st)
{
	pid_t w;
	while ((w = waitpid(pid, st, 0)) < 0 && errno == EINTR)
		;
	return w;
}

/* Run fn in a child with core dumps off; return its wait status, or -1. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rlimit no = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no);
		fn();
		_exit(0);
	}
	int st;
	return wait_child(pid, &st) < 0 ? -1 : st;
}

/* The status a probe child ends with when its instruction faulted. */
#define FAULTED 77

static int died_of(int st, int sig)
{
	return st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

static int faulted(int st)
{
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == FAULTED;
}

static void on_fault(int sig)
{
	(void)sig;
	_exit(FAULTED);
}

/* The fault an rdtsc or CPUID trap raises is caught: a child killed by
 * it makes the kernel log "traps: ... general protection fault", which
 * took 2 ms of each rec, replay and gdbstub start on a VM whose log is
 * slow (the rdtsc probe was 2.4 of 2.8 ms of rec's probes). */
static void tsc_child(void)
{
	signal(SIGSEGV, on_fault);
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) < 0)
		_exit(1);
	__rdtsc();
}

static void cpuid_child(void)
{
	unsigned a, b, c, d;
	signal(SIGSEGV, on_fault);
	if (syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) < 0)
		_exit(1);
	__cpuid(0, a, b, c, d);
	(void)a, (void)b, (void)c, (void)d;
}

static void sud_child(void)
{
	static volatile char selector = SYSCALL_DISPATCH_FILTER_BLOCK;
	signal(SIGSYS, SIG_DFL);
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &selector) < 0)
		_exit(1);
	syscall(SYS_getppid);
}

static void seccomp_child(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	signal(SIGSYS, SIG_DFL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
		_exit(1);
	syscall(SYS_getppid);
}

/* Four pages registered for write protection, one written: a scan must
 * report that page alone, and a second scan nothing (protected again). */
static void uffd_child(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	long fd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC };
	char *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int pm = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0 || ioctl(fd, UFFDIO_API, &api) < 0 || m == MAP_FAILED || pm < 0)
		_exit(1);
	memset(m, 1, 4 * pg);
	struct uffdio_register reg = { .range = { (uintptr_t)m, 4 * pg },
				       .mode = UFFDIO_REGISTER_MODE_WP };
	struct uffdio_writeprotect wp = { .range = { (uintptr_t)m, 4 * pg },
					  .mode = UFFDIO_WRITEPROTECT_MODE_WP };
	if (ioctl(fd, UFFDIO_REGISTER, &reg) < 0 || ioctl(fd, UFFDIO_WRITEPROTECT, &wp) < 0)
		_exit(1);
	m[2 * pg] = 2;
	for (int round = 0; round < 2; round++) {
		struct pm_region r[4];
		struct pm_scan_arg a = { .size = sizeof a, .flags = PM_WP_MATCHING | PM_CHECK_WPASYNC,
					 .start = (uintptr_t)m, .end = (uintptr_t)m + 4 * pg,
					 .vec = (uintptr_t)r, .vec_len = 4,
					 .category_mask = PM_WRITTEN, .return_mask = PM_WRITTEN };
		int n = ioctl(pm, PM_SCAN, &a);
		if (round == 0 && (n != 1 || r[0].start != (uintptr_t)m + 2 * pg ||
				   r[0].end != (uintptr_t)m + 3 * pg))
			_exit(1);
		if (round == 1 && n != 0)
			_exit(1);
	}
	_exit(0);
}

static void dr_child(void)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
		_exit(1);
	raise(SIGSTOP);
	for (int i = 0; i < 4; i++)
		probe_var = i;
}

/* A write watchpoint on probe_var, set with ptrace in a stopped child,
 * must stop the child at its first write. */
static int probe_debugregs(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		dr_child();
		_exit(0);
	}
	int st, ok = 0;
	uint64_t dr6;
	if (wait_child(pid, &st) == pid && WIFSTOPPED(st) &&
	    pt_set_dr(pid, 0, (uintptr_t)&probe_var) == 0 &&
	    /* DR7: local enable 0, break on writes (01), 4 bytes (11). */
	    pt_set_dr(pid, 7, 1 | 1 << 16 | 3 << 18) == 0 &&
	    ptrace(PTRACE_CONT, pid, 0, 0) == 0 && wait_child(pid, &st) == pid &&
	    WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP)
		ok = pt_get_dr(pid, 6, &dr6) == 0 && (dr6 & 1);
	kill(pid, SIGKILL);
	wait_child(pid, &st);
	return ok;
}

static void __attribute__((noinline)) probe_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static int perf_counts(uint64_t addr, int type, int len, void (*act)(void))
{
	struct perf_event_attr a = { 0 };
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof a;
	a.bp_type = type;
	a.bp_addr = addr;
	a.bp_len = len;
	a.exclude_kernel = a.exclude_hv = 1;
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return 0;
	act();
	uint64_t n = 0;
	int ok = read(fd, &n, sizeof n) == sizeof n && n == 10;
	close(fd);
	return ok;
}

static void write10(void)
{
	for (int i = 0; i < 10; i++)
		probe_var = i;
}

static void call10(void)
{
	void (*volatile f)(void) = probe_fn;
	for (int i = 0; i < 10; i++)
		f();
}

/* The kernel must count ten writes and ten executions exactly. */
static int probe_perf_bp(void)
{
	return perf_counts((uintptr_t)&probe_var, HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_4, write10) &&
	       perf_counts((uintptr_t)probe_fn, HW_BREAKPOINT_X, sizeof(long), call10);
}

static int probe_run(enum probe_feature f)
{
	switch (f) {
	case PROBE_TSC_TRAP:
		return faulted(in_child(tsc_child));
	case PROBE_DEBUGREGS:
		return probe_debugregs();
	case PROBE_PERF_BP:
		return probe_perf_bp();
	case PROBE_CPUID_FAULT:
		return faulted(in_child(cpuid_child));
	case PROBE_SUD:
		return died_of(in_child(sud_child), SIGSYS);
	case PROBE_SECCOMP_TRAP:
		return died_of(in_child(seccomp_child), SIGSYS);
	case PROBE_UFFD_WP: {
		int st = in_child(uffd_child);
		return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	default:
		return 0;
	}
}

/* Perf breakpoints are debug registers too: switching those off
 * switches both off. */
static int switched_off(enum probe_feature f)
{
	return env_flag(feat[f].env) ||
	       (f == PROBE_PERF_BP && env_flag(feat[PROBE_DEBUGREGS].env));
}

static int works(enum probe_feature f)
{
	static signed char known[PROBE_N];	/* 0 unknown, 1 works, -1 not */
	if (!known[f])
		known[f] = probe_run(f) ? 1 : -1;
	return known[f] > 0;
}

int probe_works(enum probe_feature f)
{
	return f >= 0 && f < PROBE_N && works(f);
}

int probe_has(enum probe_feature f)
{
	if (f < 0 || f >= PROBE_N || switched_off(f))
		return 0;
	return works(f);
}

void probe_print(FILE *out)
{
	for (int f = 0; f < PROBE_N; f++) {
		int w = works(f), off = switched_off(f);
		const char *state = !w ? "missing" : off ? "switched off" : "present";
		fprintf(out, "%s: %s", feat[f].name, state);
		if (off && w)
			fprintf(out, " (%s)", env_flag(feat[f].env) ? feat[f].env : feat[PROBE_DEBUGREGS].env);
		fprintf(out, ": %s\n", w && !off ? feat[f].yes : feat[f].no);
	}
}
