/* own.c: what the program sets of rewind's own settings (rdtsc mode,
 * no_new_privs, seccomp, dumpable), kept here and shown back to it. */
#include "bufdrain.h"
#include "events.h"
#include "own.h"
#include "probe.h"
#include "rec.h"
#include "sys.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef ARCH_SET_CPUID
#define ARCH_GET_CPUID 0x1011
#define ARCH_SET_CPUID 0x1012
#endif

/* The dumpable flag is the process's: its threads see the same. */
static void set_nodump(int on)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->tgid == cur->tgid)
			R.tasks[i]->own.nodump = on;
}

/* cur ends a prctl or seccomp call (registers r): what the program set
 * of rewind's own settings is shown to it as if rewind had none. Returns
 * the call's result, changed in r when it must be. */
int64_t own_settings(struct user_regs_struct *r)
{
	uint64_t *a = cur->a;
	int64_t ret = r->rax;
	/* prctl's option, arch_prctl's and seccomp's op are ints to the
	 * kernel: what the program has in the high bits does not count. */
	uint32_t op = (uint32_t)a[0];
	if (cur->nr == SYS_prctl && op == PR_SET_TSC && r->rsi != a[1]) {
		r->rsi = a[1];	/* as the program passed it */
		pt_setregs(&cur->p, r);
	}
	if (ret < 0)
		return ret;
	/* CPUID faults for rec alone, where it does: the program, which
	 * cannot set that (own_entry), sees that it does not. */
	if (cur->nr == SYS_arch_prctl) {
		if (op == ARCH_GET_CPUID && (R.tsc_way & (TSC_CPUID | TSC_CPUID_TABLE))) {
			r->rax = 1;
			pt_setregs(&cur->p, r);
		}
		return r->rax;
	}
	if (cur->nr == SYS_seccomp ? op == SECCOMP_SET_MODE_FILTER :
	    op == PR_SET_SECCOMP && a[1] == SECCOMP_MODE_FILTER)
		cur->own.seccomp = SECCOMP_MODE_FILTER;
	/* With TSYNC the filter is every thread's of the process (it
	 * returned 0: none was left out). */
	if (cur->nr == SYS_seccomp && op == SECCOMP_SET_MODE_FILTER &&
	    (a[1] & SECCOMP_FILTER_FLAG_TSYNC) && ret == 0)
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i]->tgid == cur->tgid)
				R.tasks[i]->own.seccomp = SECCOMP_MODE_FILTER;
	if (cur->nr == SYS_seccomp)
		return ret;
	switch (op) {
	case PR_GET_TSC: {
		int32_t mode = cur->own.tsc ? cur->own.tsc : PR_TSC_ENABLE;
		pt_write(&cur->p, a[1], &mode, 4);
		break;
	}
	case PR_SET_NO_NEW_PRIVS:
		cur->own.nnp = 1;
		break;
	case PR_SET_DUMPABLE:
		if (a[1] == DUMP_USER)
			set_nodump(0);
		break;
	case PR_GET_DUMPABLE:
		if (cur->own.nodump)
			r->rax = DUMP_DISABLE;
		break;
	case PR_GET_NO_NEW_PRIVS:
		r->rax = cur->own.nnp;
		break;
	case PR_GET_SECCOMP:
		r->rax = cur->own.seccomp;
		break;
	default:
		return ret;
	}
	pt_setregs(&cur->p, r);
	return r->rax;
}

/* Seccomp strict mode, which rewind's own filter rules out in the
 * kernel, is kept here: the call that enters it (nr, registers r) is
 * answered without the kernel, and in it a call other than read, write,
 * exit and rt_sigreturn kills the thread with SIGKILL, as the kernel's
 * check would; it never runs. Returns 1 for such a call. */
int seccomp_strict(long nr, struct user_regs_struct *r)
{
	uint64_t a[6];
	pt_args(r, a);
	if (cur->own.strict) {
		if (nr == SYS_read || nr == SYS_write || nr == SYS_exit || nr == SYS_rt_sigreturn)
			return 0;
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i] != cur && R.tasks[i]->tgid == cur->tgid)
				stop_recording(EXIT_TRACE, "a thread of the program in seccomp strict "
					       "mode made syscall %s (%ld), which kills only that "
					       "thread; rewind cannot record that yet (it has others); "
					       "the trace %s ends before it", sys_row(nr)->name, nr, R.dir);
		r->orig_rax = -1;
		pt_setregs(&cur->p, r);
		syscall(SYS_tkill, cur->p.pid, SIGKILL);
		return 1;
	}
	if (nr == SYS_seccomp ? (uint32_t)a[0] != SECCOMP_SET_MODE_STRICT :
	    nr != SYS_prctl || (uint32_t)a[0] != PR_SET_SECCOMP || a[1] != SECCOMP_MODE_STRICT)
		return 0;
	/* A thread with a filter of its own cannot enter it (EINVAL). */
	r->rax = cur->own.seccomp || (nr == SYS_seccomp && ((uint32_t)a[1] || a[2])) ? -EINVAL : 0;
	r->orig_rax = -1;
	pt_setregs(&cur->p, r);
	if (!r->rax) {
		cur->own.strict = 1;
		buf_want_traced(&cur->p);	/* its calls must stop to be checked */
	}
	return 0;
}

/* What the kernel answers without rewind to a call of cur (arguments a)
 * that needs no_new_privs of the program's own (rec sets it in every
 * tracee, for its filter) or CAP_SYS_ADMIN, where it has neither: a
 * seccomp filter (prctl PR_SET_SECCOMP or seccomp SECCOMP_SET_MODE_FILTER)
 * EACCES, landlock_restrict_self EPERM. Only once the kernel's earlier
 * checks would pass (the flags, a readable struct sock_fprog and its
 * length; Landlock on, no flags), which it makes itself; else 0. */
static int privs_refused(long nr, const uint64_t a[6])
{
	struct { uint16_t len; uint64_t filter; } fprog;
	int err = EACCES;
	if (nr == SYS_seccomp && (uint32_t)a[0] == SECCOMP_SET_MODE_FILTER && !((uint32_t)a[1] & ~0x3fu)) {
		if (pt_read(&cur->p, a[2], &fprog, 16) != 16 || !fprog.len || fprog.len > 4096)
			return 0;
	} else if (nr == SYS_prctl && (uint32_t)a[0] == PR_SET_SECCOMP && a[1] == SECCOMP_MODE_FILTER) {
		if (pt_read(&cur->p, a[2], &fprog, 16) != 16 || !fprog.len || fprog.len > 4096)
			return 0;
	} else if (nr == SYS_landlock_restrict_self && !(uint32_t)a[1] &&
		   syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* _VERSION */) > 0) {
		err = EPERM;
	} else {
		return 0;
	}
	return !cur->own.nnp && pt_cap_eff(cur->p.pid, CAP_SYS_ADMIN) == 0 ? err : 0;
}

void own_entry(long nr, struct user_regs_struct *r)
{
	uint64_t a[6];
	pt_args(r, a);
	int refused = privs_refused(nr, a);
	if (refused) {
		r->rax = -refused;
		r->orig_rax = -1;
		pt_setregs(&cur->p, r);
		return;
	}
	/* CPUID faults for rec (lib/tsc.h), or may, in a thread that leaves
	 * the CPU whose table is kept: a program that sets it itself would
	 * either end it, so that CPUID ran unrecorded, or want its faults,
	 * which rec does not keep apart from its own yet. A machine without
	 * CPUID faulting answers ENODEV, whatever rec does: that call goes
	 * to the kernel. */
	if (nr == SYS_arch_prctl && (uint32_t)r->rdi == ARCH_SET_CPUID &&
	    (R.tsc_way & (TSC_CPUID | TSC_CPUID_TABLE)) && probe_works(PROBE_CPUID_FAULT))
		stop_recording(EXIT_TRACE, "the program set CPUID faulting itself (arch_prctl "
			       "ARCH_SET_CPUID), which rec uses to record CPUID; the trace %s ends "
			       "before it (%s records it without)", R.dir,
			       R.tsc_way & TSC_CPUID ? "REWIND_NO_CPUID_FAULT=1" : "REWIND_NO_COUNT=1");
	if (nr == SYS_prctl && (uint32_t)r->rdi == PR_SET_TSC && (r->rsi == PR_TSC_ENABLE ||
	    r->rsi == PR_TSC_SIGSEGV)) {
		/* rdtsc keeps trapping; the program's own mode is kept
		 * here, and its PR_TSC_SIGSEGV honoured by do_rdtsc(). */
		cur->own.tsc = r->rsi;
		r->rsi = PR_TSC_SIGSEGV;
		pt_setregs(&cur->p, r);
	}
	if (nr == SYS_prctl && (uint32_t)r->rdi == PR_SET_DUMPABLE && r->rsi == DUMP_DISABLE &&
	    geteuid() != 0) {
		/* Non-dumpable, the program would close its /proc files to
		 * an ordinary user's rec: it stays dumpable, and is told it
		 * is not (PR_GET_DUMPABLE), until it says otherwise or
		 * executes a program. */
		set_nodump(1);
		r->orig_rax = -1;
		r->rax = 0;
		pt_setregs(&cur->p, r);
	}
}
