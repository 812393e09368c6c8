/* probe.h: what this machine lets a tracer do, found out by trying each
 * feature once in a throw-away child (never trusted from what the kernel
 * merely accepts), and what rewind does where one is missing. */
#ifndef REWIND_PROBE_H
#define REWIND_PROBE_H

#include <stdio.h>

enum probe_feature {
	PROBE_TSC_TRAP,		/* prctl(PR_SET_TSC, PR_TSC_SIGSEGV) makes rdtsc fault */
	PROBE_DEBUGREGS,	/* a ptrace-set DR0..DR3/DR7 watchpoint fires */
	PROBE_PERF_BP,		/* perf_event_open(PERF_TYPE_BREAKPOINT) counts hits */
	PROBE_CPUID_FAULT,	/* arch_prctl(ARCH_SET_CPUID, 0) makes cpuid fault */
	PROBE_SUD,		/* syscall user dispatch raises SIGSYS */
	PROBE_SECCOMP_TRAP,	/* a seccomp filter's RET_TRAP raises SIGSYS */
	PROBE_UFFD_WP,		/* a userfaultfd in write-protect async mode and
				   PAGEMAP_SCAN report exactly the pages written */
	PROBE_N
};

/* 1 if the feature works here and is not switched off by its
 * environment variable, else 0. Probed at the first call (a few ms at
 * most), then remembered for the process. Each feature's variable, set
 * to anything but "" or "0", makes rewind act as if the feature were
 * missing, so fallbacks can be tested on any machine:
 * REWIND_NO_TSC_TRAP, REWIND_NO_DEBUGREGS (which also switches off perf
 * breakpoints, debug registers too), REWIND_NO_PERF_BP,
 * REWIND_NO_CPUID_FAULT, REWIND_NO_SUD, REWIND_NO_SECCOMP_TRAP,
 * REWIND_NO_UFFD_WP. */
int probe_has(enum probe_feature f);
/* Whether the machine has feature f, switched off by its variable or not
 * (what the kernel answers the program). */
int probe_works(enum probe_feature f);

/* Print one line per feature: its name, present / missing / switched
 * off, and what rewind does about it. */
void probe_print(FILE *out);

#endif
