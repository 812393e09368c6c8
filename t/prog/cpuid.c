/* cpuid.c: executes CPUID (leaves 0, 1 and 0xb) and prints its answers as
 * tdump shows them, with a token that differs on every run; MODE "vendor"
 * asks leaf 0 only (the same on every CPU), "apic" prints the per-CPU
 * ids, "handler" has a SIGSEGV handler of its own, "threads" asks from two threads,
 * "exec" runs itself again through execve, "set" turns CPUID faulting off,
 * "move" moves to another CPU first (sched_setaffinity) and asks
 * ARCH_GET_CPUID too, "moved" and "movedspin" have another thread
 * move it (while it waits in a read, or spins), "probe" asks leaves past every range (as the JVM
 * looks for a hypervisor) and subleaves past a leaf's last. */
#include <cpuid.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

static void show(unsigned leaf, unsigned sub)
{
	unsigned a, b, c, d;
	__cpuid_count(leaf, sub, a, b, c, d);
	printf("cpuid 0x%x/0x%x = eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x\n", leaf, sub, a, b, c, d);
}

static void leaves(void)
{
	unsigned max, b, c, d;
	__cpuid_count(0, 0, max, b, c, d);
	show(0, 0);
	show(1, 0);
	if (max >= 0xb)
		show(0xb, 0);
}

static sigjmp_buf env;
static volatile int handled;

static void on_segv(int sig)
{
	(void)sig;
	handled++;
	siglongjmp(env, 1);
}

/* Each thread asks leaves 1 and 0xb over and over and prints a sum of
 * the answers, with a random token. */
static void *asker(void *arg)
{
	unsigned sum = 0, r = 0, a, b, c, d;
	for (int i = 0; i < 50; i++) {
		__cpuid_count(i & 1 ? 1 : 0xb, 0, a, b, c, d);
		sum = sum * 31 + (a ^ b ^ c ^ d);
		if (i % 10 == 0)
			sched_yield();
	}
	getrandom(&r, sizeof r, 0);
	printf("thread %ld sum 0x%x token %08x\n", (long)arg, sum, r);
	return NULL;
}

/* Set thread tid's (0: this one's) affinity to one CPU it may use other
 * than the one this thread is on, if there is one. */
static void move_to_other(pid_t tid)
{
	cpu_set_t s;
	int here = sched_getcpu(), to = -1;
	sched_getaffinity(0, sizeof s, &s);
	for (int c = 0; c < CPU_SETSIZE && to < 0; c++)
		if (CPU_ISSET(c, &s) && c != here)
			to = c;
	if (to < 0)
		return;
	CPU_ZERO(&s);
	CPU_SET(to, &s);
	if (sched_setaffinity(tid, sizeof s, &s))
		perror("sched_setaffinity");
}

/* "moved" and "movedspin": main moves this thread to another CPU while
 * it waits in a read (moved) or spins on go (movedspin), then lets it
 * ask the leaves that differ from CPU to CPU. */
static int pipes[4];
static volatile int go;

static void *movee(void *arg)
{
	pid_t tid = gettid();
	char c;
	if (write(pipes[1], &tid, sizeof tid) != sizeof tid)
		return NULL;
	if (arg) {
		while (!go)
			;
	} else if (read(pipes[2], &c, 1) != 1) {
		return NULL;
	}
	leaves();
	return NULL;
}

static void moved(int spin)
{
	pthread_t t;
	pid_t tid;
	if (pipe(pipes) || pipe(pipes + 2))
		return;
	pthread_create(&t, NULL, movee, spin ? (void *)1 : NULL);
	if (read(pipes[0], &tid, sizeof tid) != sizeof tid)
		return;
	move_to_other(tid);
	go = 1;
	if (write(pipes[3], "x", 1) != 1)
		return;
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "apic")) {
		/* Only the ids that differ from CPU to CPU. */
		unsigned a, b, c, d, x = 0;
		__cpuid_count(1, 0, a, b, c, d);
		if (__get_cpuid_max(0, NULL) >= 0xb) {
			__cpuid_count(0xb, 0, a, x, c, d);
			x = d;
		}
		printf("apic %u x2apic %u\n", b >> 24, x);
		return 0;
	}
	if (!strcmp(mode, "move")) {
		move_to_other(0);
		leaves();
		printf("arch_prctl(ARCH_GET_CPUID) = %ld\n", syscall(SYS_arch_prctl, 0x1011, 0));
	}
	if (!strcmp(mode, "moved") || !strcmp(mode, "movedspin"))
		moved(!strcmp(mode, "movedspin"));
	if (!strcmp(mode, "probe")) {
		for (unsigned l = 0x40000100; l < 0x40000400; l += 0x100)
			show(l, 0);
		show(0x8ffffff0, 0);
		show(7, 40);
		show(0xd, 62);
	}
	if (!strcmp(mode, "set"))
		return syscall(SYS_arch_prctl, 0x1012, 1) ? 1 : 0;	/* ARCH_SET_CPUID */
	if (!strcmp(mode, "exec")) {
		show(1, 0);
		char *args[] = { argv[0], NULL };
		execv("/proc/self/exe", args);
		perror("execv");
		return 1;
	}
	if (!strcmp(mode, "handler")) {
		/* Its handler sees the program's own fault, never CPUID's. */
		signal(SIGSEGV, on_segv);
		leaves();
		if (sigsetjmp(env, 1) == 0)
			*(volatile int *)16 = 1;
		leaves();
		printf("handler ran %d times\n", handled);
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t[2];
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, asker, (void *)i);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
	if (!strcmp(mode, "vendor"))
		show(0, 0);
	if (!*mode)
		leaves();
	printf("token %llx pid %d\n", (unsigned long long)__rdtsc(), getpid());
	return 0;
}
