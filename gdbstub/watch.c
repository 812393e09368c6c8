/* watch.c: gdb's watchpoints and the timeline's counts: stops by debug
 * registers or page protection, counts by perf breakpoints or by stops
 * (int3s, watchpoint stops); back ends chosen once from lib/probe.h. */
#include "watch.h"
#include "maps.h"
#include "probe.h"
#include "sys.h"
#include "util.h"

#include <Zydis/Zydis.h>
#include <cpuid.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TRAP_PERF
#define TRAP_PERF 6		/* si_code of a perf event's SIGTRAP */
#endif
#define PAGE 4096ull

struct watch_stops {
	const char *name;
	int (*arm)(struct watch *w);	/* w->cur on the current thread */
	void (*disarm)(struct watch *w);
	/* After a trap: bit i of *fired for w->cur[i]; returns 1 when the
	 * stop was the back end's own and a step must follow. */
	int (*trap)(struct watch *w, unsigned *fired);
	int (*step)(struct watch *w);	/* 1: the next resume must be a step */
	int (*fires)(struct watch *w, pid_t pid, const struct watchpt *wp, int n,
		     struct user_regs_struct *after);
};

struct watch_counts {
	const char *name;
	int by_stops;		/* counted here, from int3s and watchpoint stops */
	int (*open)(struct watch *w, struct watch_count *c);
	uint64_t (*read)(struct watch_count *c);
	void (*close)(struct watch_count *c);
};

static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* ---- stops by debug registers ---- */

static uint64_t get_dr(pid_t pid, int i)
{
	uint64_t v;
	return pt_get_dr(pid, i, &v) < 0 ? 0 : v;
}

/* Debug registers for wp[0..n) (x86 has no read-only kind: read
 * watchpoints watch every access). The kernel makes each change costly,
 * so with w what the thread has is remembered and only changes are
 * written. */
static void dr_load(struct watch *w, pid_t pid, const struct watchpt *wp, int n)
{
	static const int lenbits[9] = { 0, 0, 1, 0, 3, 0, 0, 0, 2 };
	uint64_t addr[4] = { 0 }, dr7 = 0;
	for (int i = 0; i < n && i < 4; i++) {
		addr[i] = wp[i].addr;
		dr7 |= 1ull << (2 * i);
		dr7 |= (uint64_t)(wp[i].type == 2 ? 1 : 3) << (16 + 4 * i);
		dr7 |= (uint64_t)lenbits[wp[i].len] << (18 + 4 * i);
	}
	pt_set_dr(pid, 6, 0);
	if (w && w->drpid == pid && w->dr7 == dr7 && !memcmp(w->draddr, addr, sizeof addr))
		return;
	pt_set_dr(pid, 7, 0);
	for (int i = 0; i < 4; i++)
		if (dr7 >> (2 * i) & 1)
			pt_set_dr(pid, i, addr[i]);
	if (dr7)
		pt_set_dr(pid, 7, dr7);
	if (w) {
		w->drpid = pid;
		w->dr7 = dr7;
		memcpy(w->draddr, addr, sizeof addr);
	}
}

static int dr_arm(struct watch *w)
{
	if (w->ncur > 4) {
		snprintf(w->msg, sizeof w->msg, "the debug registers hold 4 watchpoints; %d are wanted "
			 "(with the one a reverse search counts)", w->ncur);
		return -1;
	}
	dr_load(w, w->e->p.pid, w->cur, w->ncur);
	return 0;
}

static void dr_disarm(struct watch *w)
{
	dr_load(w, w->e->p.pid, NULL, 0);
}

static int dr_trap(struct watch *w, unsigned *fired)
{
	*fired = w->dr7 && w->drpid == w->e->p.pid ? get_dr(w->e->p.pid, 6) & 0xf : 0;
	return 0;
}

static int dr_step(struct watch *w)
{
	(void)w;
	return 0;
}

static int dr_fires(struct watch *w, pid_t pid, const struct watchpt *wp, int n,
		    struct user_regs_struct *after)
{
	(void)w;
	int st;
	dr_load(NULL, pid, wp, n);
	if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0 || waitpid(pid, &st, __WALL) != pid ||
	    !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP || ptrace(PTRACE_GETREGS, pid, 0, after) < 0)
		return -1;
	return (get_dr(pid, 6) & 0xf) != 0;
}

static const struct watch_stops dr_stops = {
	"debug registers", dr_arm, dr_disarm, dr_trap, dr_step, dr_fires,
};

/* ---- the memory an instruction accesses (for page protection) ---- */

/* One memory operand of an instruction: where, how long, whether it
 * writes; a hidden stack operand (push, pop, call, ret) is placed once
 * the step shows where rsp went. */
struct watch_acc {
	int n, ok;
	struct { uint64_t addr, len; int write, stack; } m[ZYDIS_MAX_OPERAND_COUNT];
	uint64_t rsp, fault;	/* where it faulted */
};

static uint64_t reg_value(const struct user_regs_struct *r, ZydisRegister reg, uint64_t next_rip)
{
	if (reg == ZYDIS_REGISTER_RIP || reg == ZYDIS_REGISTER_EIP)
		return next_rip;
	switch (ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg)) {
	case ZYDIS_REGISTER_RAX: return r->rax;
	case ZYDIS_REGISTER_RBX: return r->rbx;
	case ZYDIS_REGISTER_RCX: return r->rcx;
	case ZYDIS_REGISTER_RDX: return r->rdx;
	case ZYDIS_REGISTER_RSI: return r->rsi;
	case ZYDIS_REGISTER_RDI: return r->rdi;
	case ZYDIS_REGISTER_RBP: return r->rbp;
	case ZYDIS_REGISTER_RSP: return r->rsp;
	case ZYDIS_REGISTER_R8: return r->r8;
	case ZYDIS_REGISTER_R9: return r->r9;
	case ZYDIS_REGISTER_R10: return r->r10;
	case ZYDIS_REGISTER_R11: return r->r11;
	case ZYDIS_REGISTER_R12: return r->r12;
	case ZYDIS_REGISTER_R13: return r->r13;
	case ZYDIS_REGISTER_R14: return r->r14;
	case ZYDIS_REGISTER_R15: return r->r15;
	default: return 0;
	}
}

/* The size of the XSAVE area for the features the OS enabled (CPUID
 * leaf 0xd): what xsave and xrstor touch at most. */
static uint64_t xsave_size(void)
{
	unsigned a, b = 0, c, d;
	if (!__get_cpuid_count(0xd, 0, &a, &b, &c, &d) || b < 576)
		b = 4096;
	return b;
}

/* Decode the instruction thread pid is about to run (registers r) into
 * its memory operands. a->ok is 0 when it cannot be decoded. */
static void decode_acc(pid_t pid, const struct user_regs_struct *r, struct watch_acc *a)
{
	static ZydisDecoder dec;
	static int inited;
	if (!inited) {
		ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
		inited = 1;
	}
	uint8_t code[ZYDIS_MAX_INSTRUCTION_LENGTH];
	struct pt_proc p = { .pid = pid, .memfd = -1 };
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	a->n = a->ok = 0;
	a->rsp = r->rsp;
	ssize_t k = pt_read(&p, r->rip, code, sizeof code);
	if (k <= 0 || ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, code, k, &in, op)))
		return;
	uint64_t next = r->rip + in.length;
	for (int i = 0; i < in.operand_count; i++) {
		if (op[i].type != ZYDIS_OPERAND_TYPE_MEMORY || op[i].mem.type == ZYDIS_MEMOP_TYPE_AGEN ||
		    op[i].mem.type == ZYDIS_MEMOP_TYPE_MIB)
			continue;
		if (op[i].mem.type == ZYDIS_MEMOP_TYPE_VSIB)
			return;	/* a gather or scatter: many places */
		uint64_t addr = reg_value(r, op[i].mem.base, next) +
				reg_value(r, op[i].mem.index, next) * (op[i].mem.scale ? op[i].mem.scale : 1) +
				(uint64_t)op[i].mem.disp.value;
		if (op[i].mem.segment == ZYDIS_REGISTER_FS)
			addr += r->fs_base;
		else if (op[i].mem.segment == ZYDIS_REGISTER_GS)
			addr += r->gs_base;
		if (in.address_width == 32)
			addr = (uint32_t)addr;
		a->m[a->n].addr = addr;
		a->m[a->n].len = op[i].size ? (op[i].size + 7) / 8 : 64;
		if (in.meta.isa_set == ZYDIS_ISA_SET_XSAVE || in.meta.isa_set == ZYDIS_ISA_SET_XSAVEC ||
		    in.meta.isa_set == ZYDIS_ISA_SET_XSAVEOPT || in.meta.isa_set == ZYDIS_ISA_SET_XSAVES)
			a->m[a->n].len = xsave_size();	/* Zydis gives the legacy part only */
		a->m[a->n].write = (op[i].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) != 0;
		a->m[a->n].stack = op[i].visibility == ZYDIS_OPERAND_VISIBILITY_HIDDEN &&
				   ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, op[i].mem.base) ==
					   ZYDIS_REGISTER_RSP;
		a->n++;
	}
	a->ok = 1;
}

/* Did access a, made by a step that left rsp at rsp_after, touch one of
 * wp[0..n)? Bit i of the result for wp[i]. */
static unsigned acc_fired(const struct watch_acc *a, uint64_t rsp_after, const struct watchpt *wp, int n)
{
	unsigned fired = 0;
	for (int i = 0; i < n; i++) {
		if (!a->ok) {	/* undecodable: where it faulted */
			if (overlaps(a->fault, 1, wp[i].addr, wp[i].len))
				fired |= 1u << i;
			continue;
		}
		for (int j = 0; j < a->n; j++) {
			uint64_t at = a->m[j].addr;
			if (a->m[j].stack)	/* push and call write below rsp, pop and ret read at it */
				at = rsp_after < a->rsp ? rsp_after : a->rsp;
			if ((a->m[j].write || wp[i].type != 2) && overlaps(at, a->m[j].len, wp[i].addr, wp[i].len))
				fired |= 1u << i;
		}
	}
	return fired;
}

/* ---- stops by page protection ---- */

/* Run mprotect(page, 4096, prot) in the current thread. With reexec,
 * the thread is at the seccomp stop of a call the engine has yet to
 * make, and is brought back to that stop. Returns 0, -1, or 1 when no
 * call can be made now but none is needed: the thread runs no code of
 * the program before its next stop (a signal raised for it, a call at
 * its entry, a thread on its way out). */
static int pp_mprotect(struct watch *w, uint64_t page, int prot, int reexec)
{
	struct engine *e = w->e;
	struct user_regs_struct r;
	uint64_t a[6] = { page, PAGE, (uint64_t)prot }, ret = 0;
	if (e->raised || e->stopping || ptrace(PTRACE_GETREGS, e->p.pid, 0, &r) < 0)
		return 1;
	int pending = e->stop == PS_SECCOMP && (int64_t)r.orig_rax != -1;
	if (pending != reexec)
		return 1;	/* a call at its entry would be skipped */
	/* At a signal's delivery stop, the injection ends that stop: the
	 * signal is sent again afterwards, to stop at it once more. */
	siginfo_t si;
	int resig = !reexec && e->pending_sig && e->stop == PS_SIGNAL &&
		    ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &si) == 0;
	uint64_t at = reexec ? r.rip - 2 : r.rip;
	int st;
	if (eng_inject(&e->p, &r, at, SYS_mprotect, a, &ret, NULL) < 0 || ret != 0)
		return -1;
	if (resig) {
		syscall(SYS_tkill, e->p.pid, e->pending_sig);
		pt_resume(&e->p, RESUME_CONT, 0);
		while (waitpid(e->p.pid, &st, __WALL) < 0)
			if (errno != EINTR)
				return -1;
		if (pt_classify(st) != PS_SIGNAL || WSTOPSIG(st) != e->pending_sig)
			return -1;
		ptrace(PTRACE_SETSIGINFO, e->p.pid, 0, &si);
		return 0;
	}
	if (!reexec) {
		eng_left_at_sysexit(e);
		return 0;
	}
	/* Run the program's own syscall instruction again, to its seccomp stop. */
	return eng_reenter(&e->p, &r);
}

/* The program's protection of the watched pages, from /proc/PID/maps
 * (read while none of ours is set). 0 (-1 with msg) when a page cannot
 * be protected: shared, or the kernel's. The maps are read through a
 * thread of the process that lives: one whose exit the engine has yet to
 * see shows none, and read there every page looked unmapped, so that
 * none was protected again (t8070: after a thread's exit the watchpoint
 * missed a write). With no such thread nothing is known (w->valid stays
 * 0), and nothing of the process runs either. */
static int pp_read_maps(struct watch *w)
{
	struct engine *e = w->e;
	int prot[WATCH_PAGES], bad = 0, lines = 0, failed = 0;
	FILE *f = NULL;
	for (int k = -1; k < e->ntasks && !lines; k++) {
		const struct eng_task *t = k < 0 ? &e->tasks[e->ti] : &e->tasks[k];
		if ((k >= 0 && k == e->ti) || t->rtgid != w->pptgid || t->state == ET_GONE)
			continue;
		pid_t pid = k < 0 ? e->p.pid : t->p.pid;
		if (!(f = maps_open(pid))) {
			snprintf(w->msg, sizeof w->msg, "/proc/%d/maps: %s", pid, strerror(errno));
			failed = 1;
			continue;
		}
		for (int i = 0; i < w->npg; i++)
			prot[i] = -1;
		bad = 0;
		struct maps_line m;
		while (maps_next(f, &m)) {
			lines++;
			for (int i = 0; i < w->npg; i++) {
				if (w->pg[i].page < m.lo || w->pg[i].page >= m.hi)
					continue;
				if (m.perm[3] == 's' || (m.name[0] == '[' && strncmp(m.name, "[heap]", 6) &&
							 strncmp(m.name, "[stack]", 7) &&
							 strncmp(m.name, "[anon", 5))) {
					snprintf(w->msg, sizeof w->msg,
						 "cannot watch 0x%llx without debug registers: its page is %s",
						 (unsigned long long)w->pg[i].page,
						 m.perm[3] == 's' ? "shared" : "the kernel's");
					bad = 1;
				}
				prot[i] = (m.perm[0] == 'r' ? PROT_READ : 0) | (m.perm[1] == 'w' ? PROT_WRITE : 0) |
					  (m.perm[2] == 'x' ? PROT_EXEC : 0);
			}
		}
		fclose(f);
	}
	if (!lines)
		return failed ? -1 : 0;
	/* A page still protected by us shows our protection: keep what we
	 * know of it. */
	for (int i = 0; i < w->npg; i++)
		if (!(w->valid_once && w->pg[i].prot >= 0 && w->pg[i].set != w->pg[i].prot))
			w->pg[i].prot = w->pg[i].set = prot[i];
	w->valid = w->valid_once = !bad;
	return bad ? -1 : 0;
}

/* Put every page back to the program's protection. */
static int pp_open(struct watch *w, int reexec)
{
	int rc = 0;
	for (int i = 0; i < w->npg; i++)
		if (w->pg[i].prot >= 0 && w->pg[i].set != w->pg[i].prot) {
			if (pp_mprotect(w, w->pg[i].page, w->pg[i].prot, reexec) != 0) {
				rc = -1;
				continue;
			}
			w->pg[i].set = w->pg[i].prot;
		}
	return rc;
}

static int pp_any_set(const struct watch *w)
{
	for (int i = 0; i < w->npg; i++)
		if (w->pg[i].prot >= 0 && w->pg[i].set != w->pg[i].prot)
			return 1;
	return 0;
}

/* Is the current thread of the process whose pages we protect? */
static int pp_ours(const struct watch *w)
{
	const struct engine *e = w->e;
	return w->npg && e->tasks[e->ti].rtgid == w->pptgid && e->tasks[e->ti].state != ET_GONE;
}

static int pp_arm(struct watch *w)
{
	struct engine *e = w->e;
	if (w->opened)
		return 0;	/* a faulting access is being stepped with its page open */
	uint32_t tgid = e->tasks[e->ti].rtgid;
	if (tgid != w->pptgid) {
		w->pptgid = tgid;
		w->npg = 0;
		w->valid = w->valid_once = 0;
	}
	/* The pages wanted, and what each wants taken away. */
	uint64_t page[WATCH_PAGES];
	int deny[WATCH_PAGES], n = 0;
	for (int i = 0; i < w->ncur; i++)
		for (uint64_t p = w->cur[i].addr & ~(PAGE - 1); p < w->cur[i].addr + w->cur[i].len; p += PAGE) {
			int j = 0;
			while (j < n && page[j] != p)
				j++;
			if (j == n) {
				if (n == WATCH_PAGES) {
					snprintf(w->msg, sizeof w->msg, "cannot watch more than %d pages", WATCH_PAGES);
					return -1;
				}
				page[n] = p;
				deny[n++] = 0;
			}
			deny[j] |= w->cur[i].type == 2 ? PROT_WRITE : PROT_READ | PROT_WRITE | PROT_EXEC;
		}
	/* Pages no longer wanted go back first; new ones need the maps. */
	int changed = n != w->npg;
	for (int i = 0; i < n && !changed; i++)
		changed = page[i] != w->pg[i].page;
	if (changed) {
		if (pp_open(w, 0) < 0 && pp_any_set(w)) {
			snprintf(w->msg, sizeof w->msg, "cannot take a watched page's protection away here");
			return -1;
		}
		w->npg = n;
		for (int i = 0; i < n; i++)
			w->pg[i].page = page[i];
		w->valid = w->valid_once = 0;
	}
	if (!n)
		return 0;
	if (!w->valid && pp_read_maps(w) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (w->pg[i].prot < 0)
			continue;	/* not mapped: nothing can touch it */
		int want = w->pg[i].prot & ~deny[i];
		if (want == w->pg[i].set)
			continue;
		int k = pp_mprotect(w, page[i], want, 0);
		if (k == 1)
			continue;	/* nothing runs before the next stop */
		if (k < 0) {
			snprintf(w->msg, sizeof w->msg, "cannot protect the watched page 0x%llx",
				 (unsigned long long)page[i]);
			return -1;
		}
		w->pg[i].set = want;
	}
	return 0;
}

static void pp_disarm(struct watch *w)
{
	/* A thread at the entry of a call the engine has yet to make can
	 * only open the pages through that call's re-run; left protected,
	 * a checkpoint made now would fault where the recording did not. */
	if (!w->opened && pp_ours(w) && pp_open(w, 0) < 0)
		pp_open(w, 1);
}

/* The engine's hook: is this SIGSEGV an access to a page we protected? */
static int pp_fault(void *arg, const siginfo_t *si)
{
	struct watch *w = arg;
	if (w->opened || si->si_code != SEGV_ACCERR || !pp_ours(w))
		return 0;
	uint64_t page = (uint64_t)si->si_addr & ~(PAGE - 1);
	for (int i = 0; i < w->npg; i++)
		if (w->pg[i].page == page && w->pg[i].prot >= 0 && w->pg[i].set != w->pg[i].prot)
			return 1;
	return 0;
}

/* The engine's hook: the kernel is about to read or write the program's
 * memory for a call (a signal frame, sigaction, clone...), or change its
 * mappings: open every page, and read the maps again afterwards. */
static void pp_perform(void *arg)
{
	struct watch *w = arg;
	if (!pp_ours(w))
		return;
	if (pp_any_set(w))
		pp_open(w, 1);
	w->valid = 0;
}

static int pp_trap(struct watch *w, unsigned *fired)
{
	struct engine *e = w->e;
	struct user_regs_struct r;
	*fired = 0;
	if (w->opened) {	/* the access was stepped: did it touch watched bytes? */
		w->opened = 0;
		pt_getregs(&e->p, &r);
		*fired = acc_fired(w->acc, r.rsp, w->cur, w->ncur);
		return 0;
	}
	if (e->trap.si_signo != SIGSEGV)
		return 0;
	/* A fault on a page of ours: step the access with the pages open. */
	pt_getregs(&e->p, &r);
	decode_acc(e->p.pid, &r, w->acc);
	w->acc->fault = (uint64_t)e->trap.si_addr;
	if (pp_open(w, 0) < 0) {
		snprintf(w->msg, sizeof w->msg, "cannot open a watched page to step an access to it");
		return -1;
	}
	w->opened = 1;
	return 1;
}

/* A signal about to be delivered: its frame may go onto a protected
 * page, so the delivery is a step with the pages open. */
static int pp_step(struct watch *w)
{
	if (w->opened)
		return 1;
	if (w->e->pending_sig && pp_ours(w) && pp_any_set(w)) {
		if (pp_open(w, 0) == 0)
			w->opened = 1;
		if (w->acc)
			w->acc->n = 0, w->acc->ok = 1;	/* the delivery itself is no access */
		return 1;
	}
	return 0;
}

static int pp_fires(struct watch *w, pid_t pid, const struct watchpt *wp, int n,
		    struct user_regs_struct *after)
{
	(void)w;
	struct user_regs_struct r;
	struct watch_acc a;
	int st;
	if (ptrace(PTRACE_GETREGS, pid, 0, &r) < 0)
		return -1;
	decode_acc(pid, &r, &a);
	a.fault = 0;
	if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0 || waitpid(pid, &st, __WALL) != pid ||
	    !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP || ptrace(PTRACE_GETREGS, pid, 0, after) < 0)
		return -1;
	return acc_fired(&a, after->rsp, wp, n) != 0;
}

static const struct watch_stops pp_stops = {
	"page protection", pp_arm, pp_disarm, pp_trap, pp_step, pp_fires,
};

/* ---- counts by perf breakpoints ---- */

/* A hardware breakpoint that the kernel counts without stopping: on the
 * execution of the instruction at addr (wtype 0; counted before it
 * runs), or on writes (2) or any access (3, 4) of wlen bytes at addr
 * (counted after). With a period, the thread gets SIGTRAP (TRAP_PERF)
 * at each multiple, with the cookie as its si_perf_data. */
static int perf_open(struct watch *w, struct watch_count *c)
{
	struct perf_event_attr a = { 0 };
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof a;
	a.bp_type = c->wtype == 0 ? HW_BREAKPOINT_X : c->wtype == 2 ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
	a.bp_addr = c->addr;
	a.bp_len = c->wtype == 0 ? sizeof(long) : (uint64_t)c->wlen;
	a.exclude_kernel = a.exclude_hv = 1;
	a.remove_on_exec = 1;
	if (c->period) {
		a.sample_period = c->period;
		a.sigtrap = 1;
		a.sig_data = c->cookie;
	}
	c->fd = syscall(SYS_perf_event_open, &a, c->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0)
		snprintf(w->msg, sizeof w->msg, "perf_event_open: %s", strerror(errno));
	return c->fd < 0 ? -1 : 0;
}

static uint64_t perf_read(struct watch_count *c)
{
	uint64_t v = 0;
	return read(c->fd, &v, sizeof v) == sizeof v ? v : 0;
}

static void perf_close(struct watch_count *c)
{
	close(c->fd);
}

static const struct watch_counts perf_counts = { "perf breakpoints", 0, perf_open, perf_read, perf_close };

/* ---- counts by stops ---- */

static int stop_open(struct watch *w, struct watch_count *c)
{
	struct user_regs_struct r;
	(void)w;
	c->fd = -1;
	c->here = !c->wtype && ptrace(PTRACE_GETREGS, c->pid, 0, &r) == 0 && r.rip == c->addr;
	return 0;
}

static uint64_t stop_read(struct watch_count *c)
{
	return c->n;
}

static void stop_close(struct watch_count *c)
{
	(void)c;
}

static const struct watch_counts stop_counts = { "stops", 1, stop_open, stop_read, stop_close };

/* ---- the interface ---- */

int watch_by_pages(void)
{
	return !probe_has(PROBE_DEBUGREGS);
}

void watch_init(struct watch *w, struct engine *e)
{
	memset(w, 0, sizeof *w);
	w->e = e;
	w->stops = watch_by_pages() ? &pp_stops : &dr_stops;
	w->counts = probe_has(PROBE_PERF_BP) ? &perf_counts : &stop_counts;
	w->acc = xmalloc(sizeof *w->acc);
	memset(w->acc, 0, sizeof *w->acc);
	if (w->stops == &pp_stops)
		eng_hook_pages(e, pp_fault, pp_perform, w);
}

void watch_free(struct watch *w)
{
	for (int h = 0; h < WATCH_NCOUNT; h++)
		if (w->c[h].used)
			watch_count_close(w, h);
	free(w->acc);
	w->acc = NULL;
}

const char *watch_how(const struct watch *w)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "watchpoints by %s, counts by %s", w->stops->name, w->counts->name);
	return buf;
}

/* The counts of the current thread that stops count. */
static int counts_here(struct watch *w, int h)
{
	return w->counts->by_stops && w->c[h].used && w->c[h].pid == w->e->p.pid;
}

int watch_arm(struct watch *w, const struct watchpt *wp, int n)
{
	w->msg[0] = 0;
	w->ncur = 0;
	for (int i = 0; i < n; i++)
		w->cur[w->ncur++] = wp[i];
	w->nuser = w->ncur;
	for (int h = 0; h < WATCH_NCOUNT; h++)
		if (counts_here(w, h) && w->c[h].wtype) {
			struct watchpt c = { w->c[h].addr, w->c[h].wlen, w->c[h].wtype };
			w->cur[w->ncur++] = c;
		}
	return w->stops->arm(w);
}

void watch_disarm(struct watch *w)
{
	w->stops->disarm(w);
}

int watch_still_armed(const struct watch *w)
{
	return w->stops == &pp_stops && !w->opened && pp_ours(w) && pp_any_set(w);
}

void watch_reset(struct watch *w)
{
	w->drpid = 0;
	w->pptgid = 0;
	w->npg = 0;
	w->valid = w->valid_once = 0;
	w->opened = 0;
}

int watch_bps(struct watch *w, uint64_t *addr, int max)
{
	int n = 0;
	for (int h = 0; h < WATCH_NCOUNT && n < max; h++)
		if (counts_here(w, h) && !w->c[h].wtype)
			addr[n++] = w->c[h].addr;
	return n;
}

/* Count one for count h; 1 if it signals. */
static int count_one(struct watch *w, int h, struct watch_stop *ws)
{
	struct watch_count *c = &w->c[h];
	c->n++;
	if (!c->period || c->n % c->period)
		return 0;
	ws->counted = 1;
	ws->cookie = c->cookie;
	ws->count_watch = c->wtype != 0;
	return 1;
}

int watch_before(struct watch *w, uint64_t rip, struct watch_stop *ws)
{
	memset(ws, 0, sizeof *ws);
	int got = 0;
	for (int h = 0; h < WATCH_NCOUNT; h++)
		if (counts_here(w, h) && !w->c[h].wtype && w->c[h].addr == rip && !w->c[h].here) {
			w->c[h].here = 1;
			got |= count_one(w, h, ws);
		}
	return got;
}

int watch_step(struct watch *w, int step)
{
	return w->stops->step(w) || step;
}

void watch_ran(struct watch *w)
{
	for (int h = 0; h < WATCH_NCOUNT; h++)
		w->c[h].here = 0;
	w->opened = 0;
}

int watch_trap(struct watch *w, int arrived, uint64_t rip, struct watch_stop *ws)
{
	memset(ws, 0, sizeof *ws);
	unsigned fired;
	int k = w->stops->trap(w, &fired);
	if (k)
		return k;	/* nothing ran yet, or a failure */
	for (int h = 0; h < WATCH_NCOUNT; h++)
		w->c[h].here = 0;
	if (w->e->trap.si_code == TRAP_PERF && w->e->trap.si_signo == SIGTRAP) {
		/* The count's sig_data follows si_addr in the siginfo. */
		memcpy(&ws->cookie, (const char *)&w->e->trap + 24, 8);
		ws->counted = 1;
		for (int h = 0; h < WATCH_NCOUNT; h++)
			if (w->c[h].used && w->c[h].cookie == ws->cookie)
				ws->count_watch = w->c[h].wtype != 0;
	}
	for (int i = 0; i < w->ncur; i++) {
		if (!(fired >> i & 1))
			continue;
		if (i < w->nuser) {
			ws->w[ws->nw++] = w->cur[i];
			continue;
		}
		for (int h = 0; h < WATCH_NCOUNT; h++)	/* a count's watchpoint */
			if (counts_here(w, h) && w->c[h].wtype && w->c[h].addr == w->cur[i].addr &&
			    w->c[h].wlen == w->cur[i].len && w->c[h].wtype == w->cur[i].type)
				count_one(w, h, ws);
	}
	if (arrived)
		for (int h = 0; h < WATCH_NCOUNT; h++)
			if (counts_here(w, h) && !w->c[h].wtype && w->c[h].addr == rip) {
				w->c[h].here = 1;
				count_one(w, h, ws);
			}
	return 0;
}

int watch_count_open(struct watch *w, uint64_t addr, int wtype, int wlen, uint64_t period,
		     uint64_t cookie)
{
	int h = 0;
	while (h < WATCH_NCOUNT && w->c[h].used)
		h++;
	if (h == WATCH_NCOUNT) {
		snprintf(w->msg, sizeof w->msg, "too many counts at once");
		return -1;
	}
	struct watch_count *c = &w->c[h];
	memset(c, 0, sizeof *c);
	c->pid = w->e->p.pid;
	c->addr = addr;
	c->wtype = wtype;
	c->wlen = wlen;
	c->period = period;
	c->cookie = cookie;
	if (w->counts->open(w, c) < 0)
		return -1;
	c->used = 1;
	return h;
}

uint64_t watch_count_read(struct watch *w, int h)
{
	return h >= 0 && w->c[h].used ? w->counts->read(&w->c[h]) : 0;
}

void watch_count_close(struct watch *w, int h)
{
	if (h < 0 || !w->c[h].used)
		return;
	w->counts->close(&w->c[h]);
	w->c[h].used = 0;
}

int watch_step_fires(struct watch *w, pid_t pid, const struct watchpt *wp, int n,
		     struct user_regs_struct *after)
{
	return w->stops->fires(w, pid, wp, n, after);
}
