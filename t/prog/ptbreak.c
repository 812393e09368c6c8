/* ptbreak.c: a tracer that works as a debugger does on its child: it
 * single-steps it (mode step), or plants a breakpoint in its code with
 * PTRACE_POKETEXT (poke) or through /proc/PID/mem (mem), steps over it at
 * each hit and plants it again, writes the child's data with
 * process_vm_writev (vmwrite), or changes a call's result and the
 * child's data at the call's exit stop (retval), its number at its
 * entry stop (change: getuid instead), or skips it there and gives its
 * result at the exit stop (skip, as strace's fault injection does).
 * Modes rec refuses: sysemu (PTRACE_SYSEMU), patch (target's code made
 * a bare ret, not a breakpoint). Prints what both see, no ids, no addresses. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;
static int ended = -1;	/* the child's wait status once it ended */
static volatile long flag = 1;
static volatile long acc;
static int calls;	/* retval, change, skip: the child makes a call first */

static __attribute__((noinline)) void target(long i)
{
	acc = acc * 31 + i + flag;
}

/* Computes with no call, so that stepping it steps no syscall. */
static __attribute__((noinline)) long work(void)
{
	long x = 7;
	for (int i = 0; i < 40; i++)
		x = x * 1103515245 + 12345 + (x >> 7);
	return x;
}

static int waitstop(const char *what)
{
	int st;
	if (waitpid(child, &st, 0) != child) {
		printf("%s: wait failed: %s\n", what, strerror(errno));
		exit(1);
	}
	if (!WIFSTOPPED(st)) {
		ended = st;
		return -1;
	}
	return WSTOPSIG(st);
}

static void kid(void)
{
	ptrace(PTRACE_TRACEME, 0, 0, 0);
	__asm__ volatile("int3");
	if (calls) {
		long r = syscall(SYS_getppid);
		printf("child: getppid returned %ld (%s), flag %ld\n", r, r < 0 ? strerror(errno) : "ok", flag);
		fflush(stdout);
	}
	long w = work();
	for (long i = 0; i < 3; i++) {
		target(i);
		printf("child: called target %ld, acc %ld\n", i, acc);
		fflush(stdout);
	}
	printf("child: work %ld, flag %ld\n", w, flag);
	fflush(stdout);
	_exit(4);
}

static void poke(const char *mode, uint64_t addr, uint64_t word)
{
	if (!strcmp(mode, "poke")) {
		if (ptrace(PTRACE_POKETEXT, child, addr, word) < 0)
			printf("poketext: %s\n", strerror(errno));
		return;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/mem", (int)child);
	int fd = open(path, O_RDWR);
	if (fd < 0 || pwrite(fd, &word, 8, addr) != 8)
		printf("pwrite %s: %s\n", path, strerror(errno));
	close(fd);
}

static void step(void)
{
	int traps = 0, n;
	siginfo_t si;
	for (n = 0; n < 300; n++) {
		if (ptrace(PTRACE_SINGLESTEP, child, 0, 0) < 0) {
			printf("singlestep: %s\n", strerror(errno));
			break;
		}
		if (waitstop("step") != SIGTRAP)
			break;
		if (ptrace(PTRACE_GETSIGINFO, child, 0, &si) == 0 && si.si_code == TRAP_TRACE)
			traps++;
	}
	printf("tracer: %d steps, %d of them TRAP_TRACE\n", n, traps);
}

static void breakpoints(const char *mode)
{
	uint64_t addr = (uint64_t)(uintptr_t)target;
	errno = 0;
	uint64_t orig = ptrace(PTRACE_PEEKTEXT, child, addr, 0);
	if (errno)
		printf("peektext: %s\n", strerror(errno));
	uint64_t bp = (orig & ~0xffull) | 0xcc;
	poke(mode, addr, bp);
	ptrace(PTRACE_CONT, child, 0, 0);
	for (int hit = 0; waitstop("run") == SIGTRAP; hit++) {
		struct user_regs_struct r;
		ptrace(PTRACE_GETREGS, child, 0, &r);
		printf("tracer: hit %d at target: %s, argument %llu\n", hit,
		       r.rip - 1 == addr ? "yes" : "no", (unsigned long long)r.rdi);
		fflush(stdout);
		r.rip--;
		ptrace(PTRACE_SETREGS, child, 0, &r);
		poke(mode, addr, orig);
		ptrace(PTRACE_SINGLESTEP, child, 0, 0);
		if (waitstop("step over") != SIGTRAP)
			break;
		poke(mode, addr, bp);
		ptrace(PTRACE_CONT, child, 0, 0);
	}
}

/* At the call's entry stop (change: made getuid; skip: made none) and
 * its exit stop (retval: its result made 12345, and flag 7 written;
 * skip: its result made -EPERM). */
static void callstops(const char *mode)
{
	int skip = !strcmp(mode, "skip");
	struct user_regs_struct r;
	ptrace(PTRACE_SYSCALL, child, 0, 0);
	waitstop("entry");
	ptrace(PTRACE_GETREGS, child, 0, &r);
	printf("tracer: entry of call %s\n", r.orig_rax == SYS_getppid ? "getppid" : "other");
	fflush(stdout);
	if (strcmp(mode, "retval"))
		ptrace(PTRACE_POKEUSER, child, offsetof(struct user_regs_struct, orig_rax),
		       skip ? -1L : (long)SYS_getuid);
	ptrace(PTRACE_SYSCALL, child, 0, 0);
	waitstop("exit");
	ptrace(PTRACE_GETREGS, child, 0, &r);
	if (strcmp(mode, "retval"))
		printf("tracer: exit of call %lld, result %lld\n", (long long)r.orig_rax,
		       (long long)r.rax);
	fflush(stdout);
	if (skip) {
		ptrace(PTRACE_POKEUSER, child, offsetof(struct user_regs_struct, rax), (long)-EPERM);
	} else if (!strcmp(mode, "retval")) {
		ptrace(PTRACE_POKEUSER, child, offsetof(struct user_regs_struct, rax), 12345L);
		poke("mem", (uint64_t)(uintptr_t)&flag, 7);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "step";
	calls = !strcmp(mode, "retval") || !strcmp(mode, "skip") || !strcmp(mode, "change");
	child = fork();
	if (!child)
		kid();
	if (waitstop("start") != SIGTRAP)
		return 1;
	if (!strcmp(mode, "step")) {
		step();
	} else if (!strcmp(mode, "sysemu")) {
		ptrace(31 /* PTRACE_SYSEMU */, child, 0, 0);
		kill(child, SIGKILL);
		waitstop("killed");
	} else if (!strcmp(mode, "patch")) {
		uint64_t addr = (uint64_t)(uintptr_t)target;
		errno = 0;
		uint64_t w = ptrace(PTRACE_PEEKTEXT, child, addr, 0);
		ptrace(PTRACE_POKETEXT, child, addr, (w & ~0xffull) | 0xc3);
	} else if (calls) {
		callstops(mode);
	} else if (!strcmp(mode, "vmwrite")) {
		long v = 42;
		struct iovec l = { &v, sizeof v }, r = { (void *)&flag, sizeof v };
		printf("tracer: process_vm_writev %zd\n", process_vm_writev(child, &l, 1, &r, 1, 0));
		v = 5;
		poke("mem", (uint64_t)(uintptr_t)&acc, v);
	} else {
		breakpoints(mode);
	}
	fflush(stdout);
	if (ended < 0) {
		ptrace(PTRACE_CONT, child, 0, 0);
		waitstop("end");
	}
	printf("tracer: child %s %d\n", WIFEXITED(ended) ? "exited" : "status",
	       WIFEXITED(ended) ? WEXITSTATUS(ended) : ended);
	return 0;
}
