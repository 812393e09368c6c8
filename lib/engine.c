/* engine.c: replays a trace event by event: the loop that gives each
 * event to its thread (a syscall to engsys.c; signals, preemptions,
 * rdtsc and CPUID re-created here where the trace says), and the engine's public
 * calls. Any mismatch is a divergence: we stop and say so. */
#include "engint.h"
#include "bufplay.h"
#include "cap.h"
#include "count.h"
#include "pos.h"
#include "sys.h"
#include "sys_names.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* Thread t ends by signal sig that a sibling is stopped to take (a fault
 * of another thread, which kills the whole process): deliver it there,
 * as it was; t (perhaps asleep in a call) then dies with the rest.
 * Returns 1 when it was delivered: t must then stay stopped, since the
 * process's end reaches it there, and resumed it could run on to its
 * next call before the end does. */
static int fatal_elsewhere(struct engine *e, struct eng_task *t, int sig)
{
	for (int i = 0; i < e->ntasks; i++) {
		struct eng_task *o = &e->tasks[i];
		if (i == e->ti || o->rtgid != t->rtgid || o->state != ET_STOPPED || o->pending_sig != sig)
			continue;
		pt_resume(&o->p, RESUME_CONT, sig);
		o->pending_sig = 0;
		o->state = ET_EXITING;
		return 1;
	}
	return 0;
}

/* A thread or process ended (the last one: final). One killed by
 * SIGKILL from another process got no stop to replay; it is sent here. */
static int replay_task_exit(struct engine *e, int final)
{
	struct eng_task *t = cur_task(e);
	int want = (int)get32(e->cur.p), st = t->status;
	if (t->doomed == 2) {	/* reaped at its end, or at its sibling's execve */
		t->doomed = 0;
		t->state = ET_GONE;
		if (!eng_same_end(want, t->status))
			eng_diverge(e, "expected thread %u to end with status 0x%x, got 0x%x", t->rtid, want,
				t->status);
		e->status = want;
		return ENG_EVENT;
	}
	if (!final && t->state != ET_GONE && eng_sibling_execs(e, t)) {
		/* Killed by that execve, which replay performs at its end:
		 * the thread dies there. */
		t->doomed = 1;
		t->want = want;
		return ENG_EVENT;
	}
	int elsewhere = t->state != ET_GONE && WIFSIGNALED(want) && WTERMSIG(want) != SIGKILL &&
			e->pending_sig != WTERMSIG(want) && fatal_elsewhere(e, t, WTERMSIG(want));
	if (t->state != ET_GONE) {
		if (WIFSIGNALED(want) && WTERMSIG(want) == SIGKILL)
			kill(e->p.pid, SIGKILL);
		if (t->state == ET_STOPPED && !elsewhere)	/* with the fatal signal, if any */
			pt_resume(&e->p, RESUME_CONT, e->pending_sig);
		e->pending_sig = 0;
		while (waitpid(e->p.pid, &st, __WALL) < 0)
			if (errno != EINTR)
				eng_diverge(e, "thread %u is gone: %s", t->rtid, strerror(errno));
		if (!WIFEXITED(st) && !WIFSIGNALED(st))
			eng_diverge(e, "expected thread %u to end, got %s", t->rtid,
				eng_describe_stop(e, pt_classify(st), st));
		t->state = ET_GONE;
	}
	/* The futex words its end marked through its robust list, in the
	 * memory of its live siblings (written through one of them). */
	for (int i = 0; i < e->ntasks; i++)
		if (i != e->ti && e->tasks[i].rtgid == t->rtgid && e->tasks[i].state != ET_GONE) {
			struct pt_proc me = e->p;
			e->p = e->tasks[i].p;
			eng_apply_mem(e, &e->cur);
			e->p = me;
			break;
		}
	if (!eng_same_end(want, st))
		eng_diverge(e, "expected thread %u to end with status 0x%x, got 0x%x", t->rtid, want, st);
	e->status = want;
	if (final) {
		e->done = 1;
		return ENG_EXIT;
	}
	if (e->p.memfd >= 0) {
		/* Its /proc/TID/mem goes with it: a program that makes and
		 * ends 80,000 threads one after another (LTP's keyctl02)
		 * ran replay out of descriptors. */
		close(e->p.memfd);
		e->p.memfd = t->p.memfd = -1;
	}
	eng_drop_gone(e);
	return ENG_EVENT;
}

/* The current thread is at the delivery stop of a signal it is to
 * take (e->pending_sig), and its preemption comes next: rec saw the
 * kernel deliver the signal first (the handler's frame built, its mask
 * set) and stopped the thread after, in the handler. So deliver it now,
 * with a single step, which stops at the handler's first instruction;
 * the state then set is the one rec found further on. A signal without
 * a handler leaves nothing to make. */
static void deliver_pending(struct engine *e)
{
	int sig = e->pending_sig, st;
	uint64_t caught = 0;
	e->pending_sig = 0;
	if (pt_status_hex(e->p.pid, "SigCgt:", &caught) < 0 || !(caught >> (sig - 1) & 1))
		return;
	int how = e->how;
	e->how = RESUME_STEP;
	pt_resume(&e->p, RESUME_STEP, sig);
	int k = eng_wait_stop(e, &st);
	e->how = how;
	if (k != PS_SIGNAL || WSTOPSIG(st) != SIGTRAP)
		eng_diverge(e, "thread %u: expected the handler of signal %d to start, got %s",
			cur_task(e)->rtid, sig, eng_describe_stop(e, k, st));
	e->stop = PS_SIGNAL;
}

/* Block contents of this trace's preemptions read so far, by hash. */
static struct pos_store store;
static int store_whole;	/* it holds every block of the records before */

/* An IT_XBLOCK: its block's bytes from those of its base, into store.
 * 0, or -1 when the base is missing or the result has another hash. */
static int xblock(const struct trace_item *it)
{
	static uint8_t buf[POS_BLOCK];
	uint64_t hash = get64(it->p), base = get64(it->p + 8);
	uint32_t len = it->len - 16, blen;
	const uint8_t *b = pos_store_get(&store, base, &blen);
	if (!b || blen != len || len > POS_BLOCK)
		return -1;
	for (uint32_t k = 0; k < len; k++)
		buf[k] = it->p[16 + k] ^ b[k];
	if (hash_final(hash_update(HASH_INIT, buf, len), len) != hash)
		return -1;
	pos_store_add(&store, hash, buf, len);
	return 0;
}

/* Keep the blocks of one TR_PREEMPT; -1 when an IT_XBLOCK cannot be made. */
static int keep_blocks(const struct trace_rec *rec)
{
	struct trace_item it;
	size_t off = trace_fixed_size(TR_PREEMPT);
	int k, rc = 0;
	pos_store_fence(&store);	/* the blocks before are another record's */
	while ((k = trace_item(rec, &off, &it)) > 0)
		if (it.tag == IT_BLOCK && it.len >= 8)
			pos_store_add(&store, get64(it.p), it.p + 8, it.len - 8);
		else if (it.tag == IT_XBLOCK && it.len >= 16 && xblock(&it) < 0)
			rc = -1;
	return rc;
}

/* A replay that started from a checkpoint has not read the blocks of the
 * preemptions before it, which later ones name: read them all, once. */
static void keep_blocks_before(struct engine *e, uint64_t upto)
{
	struct trace_reader r;
	struct trace_rec rec;
	store_whole = 1;
	if (trace_open(&r, e->dir) < 0)
		return;
	while (trace_next(&r, &rec) > 0 && rec.event < upto)
		if (rec.kind == TR_PREEMPT)
			keep_blocks(&rec);
	trace_close(&r);
}

/* Keep the blocks of TR_PREEMPT rec (the current record or the next),
 * reading those of the records before it when one is made from a base
 * not read yet (a replay started from a checkpoint, which may be the
 * current record: its blocks were never read either). */
static void have_blocks(struct engine *e, const struct trace_rec *rec)
{
	if (keep_blocks(rec) < 0) {
		if (!store_whole)
			keep_blocks_before(e, rec->event);
		if (keep_blocks(rec) < 0)
			eng_bad_record(e, "a memory block whose base is not in the trace, or of another hash");
	}
}

#define MAXSPS 64

/* The stack pointers of the live threads of the current thread's
 * process into sps (at most MAXSPS), where their dead stacks begin (a
 * point brings its own: IT_DEAD). */
static int proc_sps(struct engine *e, uint64_t *sps)
{
	int n = 0;
	for (int i = 0; i < e->ntasks && n < MAXSPS; i++) {
		struct eng_task *t = &e->tasks[i];
		struct user_regs_struct r;
		if (t->rtgid == cur_task(e)->rtgid && t->state != ET_GONE && eng_task_regs(e, t, &r) == 0)
			sps[n++] = r.rsp;
	}
	return n;
}

/* Resume the current thread (how: RESUME_CONT or RESUME_STEP) and wait
 * for its next stop, passing over interruptions; returns the stop's
 * kind, its wait status in *st. */
static int point_run(struct engine *e, int how, int *st)
{
	int k;
	e->how = how;
	pt_resume(&e->p, how, 0);
	while ((k = eng_wait_stop(e, st)) == PS_INTR)
		pt_resume(&e->p, how, 0);
	e->stop = k;
	return k;
}

/* The thread on its way to its point stopped at k (status st), which
 * the recorded run did not: a divergence. */
static void __attribute__((noreturn)) point_lost(struct engine *e, int k, int st, uint64_t want)
{
	eng_diverge(e, "thread %u: expected to reach its point (count %llu, rip %#llx), got %s",
		    cur_task(e)->rtid, (unsigned long long)want,
		    (unsigned long long)trace_preempt_rip(&e->cur), eng_describe_stop(e, k, st));
}

/* The current thread (stopped) re-executes to the point e->cur records:
 * with its count armed it runs to the count's trap (count.h), then on
 * to the recorded rip with a hidden int3 there, armed again to trap at
 * the next counted edge, which would mean it went past. At each
 * arrival its state is compared (rematch.h); the first equal one is
 * the point. Anything else first (a call, a signal, the count's next
 * trap, a search over budget) is a divergence. */
static void reexec_point(struct engine *e)
{
	struct eng_task *t = cur_task(e);
	uint64_t want, rip = trace_preempt_rip(&e->cur);
	struct user_regs_struct r;
	int st, k;
	if (trace_count(&e->cur, &want) < 0)
		eng_bad_record(e, "a point without its count");
	int armed = count_arm(&e->p, t->rtgid, t->rtid, want);
	if (armed < 0)
		eng_diverge(e, "thread %u: its count is past %llu, where its point is", t->rtid,
			    (unsigned long long)want);
	while (armed > 0) {
		k = point_run(e, RESUME_CONT, &st);
		if (k == PS_SIGNAL && WSTOPSIG(st) == SIGTRAP) {
			pt_getregs(&e->p, &r);
			if (count_trapped(&e->p, t->rtgid, t->rtid, r.rip, want))
				break;
		}
		point_lost(e, k, st, want);
	}
	for (;;) {
		pt_getregs(&e->p, &r);
		if (r.rip == rip) {
			e->rm.arrivals++;
			count_set(&e->p, t->rtgid, t->rtid, want);	/* the slot as rec had it */
			/* A point brings its dead stacks (IT_DEAD): no stack pointers. */
			int m = rematch_check(&e->p, &e->cur, &e->rm, &store, NULL, 0);
			if (m > 0)
				break;
			if (m < 0)
				eng_diverge(e, "thread %u: no state at %#llx after count %llu is its "
					    "point's (%llu arrivals compared)", t->rtid,
					    (unsigned long long)rip, (unsigned long long)want,
					    (unsigned long long)e->rm.arrivals);
			/* On past the int3's place, one instruction. */
			k = point_run(e, RESUME_STEP, &st);
			if (k != PS_SIGNAL || WSTOPSIG(st) != SIGTRAP)
				point_lost(e, k, st, want);
			continue;
		}
		uint8_t orig, cc = 0xcc;
		if (count_arm(&e->p, t->rtgid, t->rtid, want + 1) < 0 ||
		    pt_read(&e->p, rip, &orig, 1) != 1 || pt_write(&e->p, rip, &cc, 1) < 0)
			eng_diverge(e, "thread %u: cannot arm the search for its point at %#llx", t->rtid,
				    (unsigned long long)rip);
		k = point_run(e, RESUME_CONT, &st);
		pt_write(&e->p, rip, &orig, 1);
		if (k != PS_SIGNAL || WSTOPSIG(st) != SIGTRAP)
			point_lost(e, k, st, want);
		pt_getregs(&e->p, &r);
		if (count_trapped(&e->p, t->rtgid, t->rtid, r.rip, want + 1))
			eng_diverge(e, "thread %u: went past its point (count %llu, rip %#llx) without "
				    "finding its state", t->rtid, (unsigned long long)want,
				    (unsigned long long)rip);
		if (r.rip - 1 != rip)
			point_lost(e, k, st, want);
		r.rip = rip;
		pt_setregs(&e->p, &r);
	}
	e->stop = PS_SIGNAL;
	e->preempt_how = RM_FOUND;
}

/* The point e->cur was found: its FP/vector state is set all the same,
 * for the XSAVE header, which the comparison leaves out (rematch.c) but
 * a signal frame written later shows. */
static void point_found(struct engine *e, const struct trace_item *xs)
{
	if (pt_setxstate(&e->p, xs->p, xs->len) < 0)
		eng_diverge(e, "thread %u: cannot set its FP/vector state: %s", cur_task(e)->rtid,
			    strerror(errno));
}

/* The current thread was stopped between syscalls, after running a
 * stretch of code that replay cannot count its way through without
 * hardware counters. Its recorded state is made instead: registers,
 * FP/vector state, and every block of writable memory whose hash
 * differs. Everything the thread computed there is in that state, so the
 * run goes on from it exactly. */
static void replay_preempt(struct engine *e)
{
	struct trace_item regs, xs, hashes;
	if (e->cur.size < trace_fixed_size(TR_PREEMPT))
		eng_bad_record(e, "short preemption record");
	if (trace_preempt_state(&e->cur, &regs, &xs, &hashes) < 0 ||
	    regs.len != sizeof(struct user_regs_struct) || !xs.len || hashes.len % 24)
		eng_bad_record(e, "preemption without its state");
	if (e->pending_sig)
		deliver_pending(e);
	if (trace_preempt_point(&e->cur)) {
		/* Counted (lib/count.h): re-executed to, unless a debugger's
		 * search found it already; a search that gave up or ran
		 * into a call left the thread past it. */
		if (e->preempt_how == RM_SET)
			reexec_point(e);
		else if (e->preempt_how != RM_FOUND)
			eng_diverge(e, "thread %u: its point at %#llx was not found", cur_task(e)->rtid,
				    (unsigned long long)trace_preempt_rip(&e->cur));
		point_found(e, &xs);
		return;
	}
	have_blocks(e, &e->cur);
	struct pos_block *b = xmalloc(hashes.len + 1);
	memcpy(b, hashes.p, hashes.len);
	char why[256];
	int rc = pos_apply(&e->p, b, hashes.len / 24, &store, why, sizeof why);
	if (rc < 0 && !store_whole) {
		keep_blocks_before(e, e->cur.event);
		rc = pos_apply(&e->p, b, hashes.len / 24, &store, why, sizeof why);
	}
	if (rc < 0)
		eng_diverge(e, "thread %u: %s", cur_task(e)->rtid, why);
	free(b);
	struct user_regs_struct r;
	memcpy(&r, regs.p, sizeof r);
	/* Stopped at the end of a call that a signal the program never saw
	 * (rec's own SIGSTOP) interrupted: when rec let it go on, the
	 * kernel restarted the call, as it does where no handler runs (the
	 * call's number again, or restart_syscall, and back to the syscall
	 * instruction). Replay stops the thread where the kernel does not
	 * do that: it is done here. With a signal delivered next, the
	 * kernel does it as the signal's handling says. */
	if ((int64_t)r.orig_rax >= 0 && cap_is_restart((int64_t)r.rax) &&
	    !eng_next_signal_of(e, cur_task(e)->rtid)) {
		r.rax = (int64_t)r.rax == -516 /* ERESTART_RESTARTBLOCK */ ? SYS_restart_syscall : r.orig_rax;
		r.rip -= 2;
		r.orig_rax = -1;
	}
	/* A state taken right after a call (a tracer in the program
	 * poked its tracee there) is set where replay answered that call,
	 * at its entry: the kernel must not run it again. */
	if (e->stop == PS_SECCOMP)
		r.orig_rax = -1;
	pt_setregs(&e->p, &r);
	if (pt_setxstate(&e->p, xs.p, xs.len) < 0)
		eng_diverge(e, "thread %u: cannot set its FP/vector state: %s", cur_task(e)->rtid,
			strerror(errno));
	uint64_t c;
	if (trace_count(&e->cur, &c) == 0)	/* after the memory: the slot is in it */
		count_set(&e->p, cur_task(e)->rtgid, cur_task(e)->rtid, c);
}

static void replay_signal(struct engine *e, int k)
{
	int sig = get32(e->cur.p), flags = get32(e->cur.p + 4);
	char want[64];
	snprintf(want, sizeof want, "signal %d", sig);
	e->raised = 0;
	eng_expect(e, k, PS_SIGNAL, want);
	if (WSTOPSIG(e->status) != sig)
		eng_diverge(e, "expected signal %d, got signal %d", sig, WSTOPSIG(e->status));
	if (flags & TRS_ASYNC)
		ptrace(PTRACE_SETSIGINFO, e->p.pid, 0, e->cur.p + 8);
	eng_apply_mem(e, &e->cur);	/* robust mutexes of a process it ends */
	e->pending_sig = sig;
}

static void replay_rdtsc(struct engine *e, int k)
{
	const uint8_t *p = e->cur.p;
	if (e->cur.size < trace_fixed_size(TR_RDTSC))
		eng_bad_record(e, "short rdtsc record");
	uint64_t rip = get64(p), tsc = get64(p + 8);
	eng_expect(e, k, PS_SIGNAL, "rdtsc");
	struct user_regs_struct r;
	siginfo_t si = { 0 };
	pt_getregs(&e->p, &r);
	ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &si);
	if (tsc_stopped(&e->p, cur_task(e)->rtgid, &si, r.rip) != (get32(p + 20) ? 2 : 1) ||
	    r.rip != rip)
		eng_diverge(e, "expected rdtsc at 0x%llx, got signal %d at 0x%llx",
			(unsigned long long)rip, WSTOPSIG(e->status), (unsigned long long)r.rip);
	/* What rec undid of the fault's changes to the trap's signal (the
	 * same fault here made them too): blocked again, its action back. */
	struct trace_item it;
	if (eng_find_item(&e->cur, IT_TRAPACT, -1, &it)) {
		uint64_t act[4];
		int sig = it.len >= 8 ? (int)get32(it.p) : 0, how = it.len >= 8 ? (int)get32(it.p + 4) : 0;
		if (sig < 1 || sig > 64 || ((how & 2) && it.len < 40))
			eng_bad_record(e, "bad trap action item");
		if ((how & 1) && pt_block_signal(&e->p, sig) < 0)
			eng_diverge(e, "cannot block signal %d again after the rdtsc at 0x%llx: %s", sig,
				    (unsigned long long)rip, strerror(errno));
		if (how & 2) {
			memcpy(act, it.p + 8, sizeof act);
			if (inject_sigaction(&e->p, &r, sig, act) < 0)
				eng_diverge(e, "cannot set the action of signal %d back after the rdtsc "
					    "at 0x%llx", sig, (unsigned long long)rip);
		}
	}
	r.rax = (uint32_t)tsc;
	r.rdx = tsc >> 32;
	if (get32(p + 20))
		r.rcx = get32(p + 16);
	r.rip += get32(p + 20) ? 3 : 2;
	pt_setregs(&e->p, &r);
}

/* A CPUID that faulted (TSC_CPUID): the recorded answer, at the
 * recorded place. */
static void replay_cpuid(struct engine *e, int k)
{
	const uint8_t *p = e->cur.p;
	if (e->cur.size < trace_fixed_size(TR_CPUID))
		eng_bad_record(e, "short cpuid record");
	uint64_t rip = get64(p);
	eng_expect(e, k, PS_SIGNAL, "cpuid");
	struct user_regs_struct r;
	siginfo_t si = { 0 };
	pt_getregs(&e->p, &r);
	ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &si);
	if (tsc_stopped(&e->p, cur_task(e)->rtgid, &si, r.rip) != TSC_CPUID_INSN || r.rip != rip)
		eng_diverge(e, "expected cpuid at 0x%llx, got signal %d at 0x%llx",
			(unsigned long long)rip, WSTOPSIG(e->status), (unsigned long long)r.rip);
	if ((uint32_t)r.rax != get32(p + 8) || (uint32_t)r.rcx != get32(p + 12))
		eng_diverge(e, "expected cpuid leaf 0x%x/0x%x at 0x%llx, got 0x%x/0x%x", get32(p + 8),
			    get32(p + 12), (unsigned long long)rip, (uint32_t)r.rax, (uint32_t)r.rcx);
	uint32_t out[4] = { get32(p + 16), get32(p + 20), get32(p + 24), get32(p + 28) };
	tsc_cpuid_done(&e->p, &r, out);
}

/* Replay e->cur, which the tracee's stop k (-1: no stop) begins. */
static int dispatch(struct engine *e, int k)
{
	static int debug = -1;	/* REWIND_ENGDEBUG=1: each event on stderr */
	if (debug < 0)
		debug = getenv("REWIND_ENGDEBUG") != NULL;
	if (debug)
		fprintf(stderr, "[eng] event %llu tid %u kind %d stop %d pid %d\n",
			(unsigned long long)e->cur.event, e->cur.tid, e->cur.kind, k, e->p.pid);
	memset(&e->rm, 0, sizeof e->rm);	/* a new stretch begins */
	/* Before the first execve no thread exists: only that call (or a
	 * kind from a newer writer that needs no action) can come. */
	if (!e->started && e->cur.kind >= TR_START && e->cur.kind <= TR_CPUID &&
	    e->cur.kind != TR_SYSCALL)
		eng_bad_record(e, "an event before the program started");
	switch (e->cur.kind) {
	case TR_SYSCALL:
		eng_replay_syscall(e, k);
		break;
	case TR_SIGNAL:
		replay_signal(e, k);
		break;
	case TR_RDTSC:
		replay_rdtsc(e, k);
		break;
	case TR_CPUID:
		replay_cpuid(e, k);
		break;
	case TR_EXIT:
	case TR_TASKEXIT:
		if (e->cur.size < 8)
			eng_bad_record(e, "short exit record");
		if (k < 0 || e->made > 1)
			return replay_task_exit(e, e->cur.kind == TR_EXIT);
		int want = (int)get32(e->cur.p);
		eng_expect(e, k, PS_EXITED, "the program's exit");
		if (e->status != want)
			eng_diverge(e, "expected exit status 0x%x, got 0x%x", want, e->status);
		return ENG_EXIT;
	case TR_SYSRET:
		eng_replay_sysret(e);
		break;
	case TR_PREEMPT:
		replay_preempt(e);
		break;
	case TR_START:
		eng_bad_record(e, "second start record");
	default:
		break;	/* a kind from a newer writer that needs no action */
	}
	return ENG_EVENT;
}

/* The recorded rip of the next event if it is a preemption the current
 * re-execution runs to, and the thread's index in *ti; else 0. */
static uint64_t rerun_rip(struct engine *e, int *ti)
{
	if (!e->reexec || !e->debug || !e->started || e->done)
		return 0;
	const struct trace_rec *nx = eng_peek_next(e, 1);
	if (!nx || nx->kind != TR_PREEMPT || !rematch_ran(nx))
		return 0;
	int i = find_task(e, nx->tid);
	if (i < 0 || e->tasks[i].rtgid != e->reexec || e->tasks[i].state != ET_STOPPED)
		return 0;
	*ti = i;
	return rematch_rip(nx);
}

/* The next event nx is a preemption that the current thread re-executes
 * up to (e->reexec), stopped now: whether it is at the recorded place
 * again, or the search gave up; its state is then set either way. */
static int rematch_here(struct engine *e, const struct trace_rec *nx)
{
	uint64_t sps[MAXSPS];
	/* Counted and not at its count yet (armed: a checkpoint restored
	 * there, say): an equal state before it is another turn of a loop
	 * whose state repeats, not the place. */
	if (e->rm.cstate == RMC_ARMED)
		return 0;
	int n = proc_sps(e, sps);
	have_blocks(e, nx);	/* the bytes of its changed blocks */
	int m = rematch_check(&e->p, nx, &e->rm, &store, sps, n);
	e->preempt_how = m > 0 ? RM_FOUND : RM_GAVEUP;
	return m;
}

/* With pt_trace_all, the current thread at a seccomp stop: if its call
 * is one rec let through (not its next event, which one taken at its
 * entry for a tracer in the tree is), make it, to its end, and say so. */
static int let_through(struct engine *e, const struct trace_rec *nx)
{
	struct user_regs_struct r;
	uint64_t a[6];
	pt_getregs(&e->p, &r);
	pt_args(&r, a);
	if (!pt_let_call((long)r.orig_rax, a) ||
	    (nx && nx->kind == TR_SYSCALL && (nx->flags & TRF_ATENTRY) && get32(nx->p) == (uint32_t)r.orig_rax))
		return 0;
	if (e->perform)
		e->perform(e->hook_arg);
	int how = e->how;	/* eng_run_call sets its own */
	eng_run_call(e, &r);
	e->how = how;
	return 1;
}

/* Resume the current thread (one instruction with step) and wait for the
 * stop that ends the resume. Returns ENG_INTR or ENG_TRAP when that ends
 * eng_resume() (trapsig: the SIGTRAP is the next event's, no trap; with
 * rerun, the preemption re-executed up to, told of the trap), else 0 with
 * the stop's kind in *k and wait status in *st. */
static int run_to_stop(struct engine *e, int step, int trapsig, const struct trace_rec *rerun,
		       int *k, int *st)
{
	int from = e->stop;
	/* A call rec took at its entry (TRF_ATENTRY), which the filter lets
	 * through: stopped there the same way, the entry its seccomp stop. */
	const struct trace_rec *nx = e->held ? &e->ahead : NULL;
	int atentry = !step && !pt_trace_all && nx && nx->kind == TR_SYSCALL && (nx->flags & TRF_ATENTRY);
	e->how = step ? RESUME_STEP : atentry ? RESUME_SYSCALL : RESUME_CONT;
	if (!step && !e->debug)
		bufplay_load(e);
	bufplay_raw(e);
	pt_resume(&e->p, e->how, e->pending_sig);
	e->pending_sig = 0;
	for (;;) {
		*k = eng_wait_stop(e, st);
		if (atentry && *k == PS_SYSEXIT) {
			if (!pt_at_entry(&e->p)) {	/* the end of the call it stood in */
				pt_resume(&e->p, RESUME_SYSCALL, 0);
				continue;
			}
			*k = PS_SECCOMP;
			e->p.at_entry = 1;
		}
		e->stop = *k == PS_INTR ? PS_SIGNAL : *k;
		bufplay_sync(e);
		if (*k == PS_INTR)
			return ENG_INTR;
		if (*k == PS_SECCOMP && pt_trace_all && let_through(e, nx)) {
			if (e->debug)
				return ENG_AGAIN;
			pt_resume(&e->p, e->how, 0);
			continue;
		}
		if (*k == PS_SIGNAL && WSTOPSIG(*st) == SIGSEGV && e->debug && e->fault &&
		    ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &e->trap) == 0 && e->fault(e->hook_arg, &e->trap))
			return ENG_TRAP;
		if (*k != PS_SIGNAL || WSTOPSIG(*st) != SIGTRAP || !e->debug || trapsig)
			return 0;
		ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &e->trap);
		/* A step from a seccomp stop first reports the end of the
		 * skipped call, before any instruction has run. */
		if (step && from == PS_SECCOMP && e->trap.si_code == TRAP_BRKPT) {
			from = 0;
			pt_resume(&e->p, RESUME_STEP, 0);
			continue;
		}
		struct user_regs_struct r;
		uint64_t want;
		pt_getregs(&e->p, &r);
		if (rerun && e->rm.cstate == RMC_ARMED && e->trap.si_code == SI_KERNEL &&
		    trace_count(rerun, &want) == 0 &&
		    count_trapped(&e->p, cur_task(e)->rtgid, cur_task(e)->rtid, r.rip, want)) {
			/* At the recorded count, on the edge's target: the
			 * search for the rip begins here. */
			e->rm.cstate = RMC_DONE;
			e->rm.ctrap = 1;
			e->rm.checked = 0;	/* a check before, at this rip, was at another count */
			e->trap.si_code = TRAP_TRACE;
			return ENG_TRAP;
		}
		/* A step into a counting trampoline goes on to the program's
		 * code: nobody sees a trampoline. */
		if (step && count_in_tramp(cur_task(e)->rtgid, r.rip)) {
			pt_resume(&e->p, RESUME_STEP, 0);
			continue;
		}
		if (rerun)
			rematch_stopped(&e->rm, rerun, &e->trap, &r);
		return ENG_TRAP;
	}
}

/* How far past the count rec had at a traced call or a synchronous
 * signal replay lets the thread run looking for it: far beyond the few
 * edges a path through libc may differ by (lib/bufabi.h's raw_next), and
 * a millisecond or so of a loop's work. */
#define EVENT_SLACK (1u << 16)

/* The next event nx is a traced call or a synchronous signal of the
 * current thread: if it holds the count rec saw (counted), the thread is
 * armed to trap EVENT_SLACK edges past it, so that a replay gone astray
 * (an endless loop where rec made a call or faulted) ends in a
 * divergence instead of running for ever. Under a debugger too, where
 * a stop on the way (a breakpoint) disarms it and the next resume arms
 * it again; not for a single step. Returns the count armed for, or 0. */
static uint64_t event_bound(struct engine *e, const struct trace_rec *nx, int step)
{
	struct eng_task *t = cur_task(e);
	uint64_t c;
	if (step || (nx->kind == TR_SIGNAL && (get32(nx->p + 4) & TRS_ASYNC)) ||
	    trace_count(nx, &c) < 0 || count_arm(&e->p, t->rtgid, t->rtid, c + EVENT_SLACK) != 1)
		return 0;
	return c + EVENT_SLACK;
}

/* The run to nx (that call or signal) stopped (k, st), armed for bound:
 * at the count's trap it is a divergence; else the thread is disarmed. */
static void event_bound_end(struct engine *e, const struct trace_rec *nx, uint64_t bound, int k,
			    int st)
{
	struct eng_task *t = cur_task(e);
	struct user_regs_struct r;
	uint64_t at = bound;
	if (k == PS_SIGNAL && WSTOPSIG(st) == SIGTRAP && pt_getregs_alive(&e->p, &r) == 0 &&
	    count_take_trap(&e->p, t->rtgid, t->rtid, r.rip, &at)) {
		int is_sig = nx->kind == TR_SIGNAL;
		const char *name = is_sig ? signal_name((int)get32(nx->p))
					  : sys_row((int32_t)get32(nx->p))->name;
		eng_load_next(e);
		eng_diverge(e, "thread %u ran %u counted edges past where rec saw its %s%s (count %llu) "
			    "without it", t->rtid, EVENT_SLACK, name ? name : is_sig ? "signal" : "unnamed",
			    is_sig ? "" : " call",
			    (unsigned long long)(bound - EVENT_SLACK));
	}
	if (k != PS_EXITED)
		count_disarm(&e->p, t->rtgid, t->rtid, bound);
}

int eng_resume(struct engine *e, int step)
{
	if (e->done)
		return ENG_EXIT;
	const struct trace_rec *nx = eng_peek_next(e, 0);
	int kind = nx->kind;
	if (e->started && kind != TR_START) {
		int i = find_task(e, nx->tid);
		if (i < 0) {
			eng_load_next(e);
			eng_bad_record(e, "an event of a thread that does not exist");
		}
		eng_switch_task(e, i);
		count_switch(&e->p, cur_task(e)->rtgid, cur_task(e)->rtid);
	}
	/* Killed from outside (kill -9) between two calls: it died somewhere
	 * in code that makes no call, which replay cannot find again without
	 * counting; nothing of that stretch reaches the trace or the outside
	 * (its output goes through calls), so it is killed where it stands,
	 * after its last recorded call, instead of running on for ever. */
	int killed = (kind == TR_EXIT || kind == TR_TASKEXIT) && nx->size >= 4 &&
		     WIFSIGNALED(get32(nx->p)) && WTERMSIG(get32(nx->p)) == SIGKILL;
	int rti;
	int rerun = kind == TR_PREEMPT && rerun_rip(e, &rti);
	if (rerun) {
		if (rematch_here(e, nx)) {	/* there again, or given up: its state is set */
			eng_load_next(e);
			return dispatch(e, -1);
		}
	} else if (kind == TR_PREEMPT) {
		e->preempt_how = RM_SET;
	}
	if (!e->started || (kind != TR_SYSCALL && kind != TR_SIGNAL && kind != TR_RDTSC &&
			    kind != TR_CPUID &&
			    (kind != TR_EXIT || e->made > 1 || killed) && !rerun)) {
		eng_load_next(e);
		return dispatch(e, -1);	/* the first execve, or a kind without a stop */
	}
	if (cur_task(e)->state != ET_STOPPED) {
		eng_load_next(e);
		eng_diverge(e, "thread %u is inside a syscall", cur_task(e)->rtid);
	}
	int trapsig = 0;
	uint64_t bound = 0;
	if (kind == TR_SIGNAL) {
		if (nx->size < trace_fixed_size(TR_SIGNAL))
			eng_bad_record(e, "short signal record");
		trapsig = get32(nx->p) == SIGTRAP;
		if ((get32(nx->p + 4) & TRS_ASYNC) && !e->raised) {
			syscall(SYS_tkill, e->p.pid, get32(nx->p));
			e->raised = 1;
		}
	}
	if (kind == TR_SYSCALL || kind == TR_SIGNAL)
		bound = event_bound(e, nx, step);
	int st, k, end = run_to_stop(e, step, trapsig, rerun ? nx : NULL, &k, &st);
	if (bound)	/* under a debugger the trap ends the resume (ENG_TRAP) */
		event_bound_end(e, nx, bound, end == ENG_INTR ? -1 : k, st);
	if (end)
		return end;
	e->status = st;
	if (rerun && k == PS_SECCOMP) {
		/* A call where the recorded run made none: the place was
		 * passed without being found (a state that differed from the
		 * recorded one in bytes the program does not read). Its
		 * state is set there. */
		e->preempt_how = RM_PASSED;
		eng_load_next(e);
		return dispatch(e, -1);
	}
	if (rerun) {
		eng_load_next(e);
		eng_diverge(e, "thread %u stopped (%s) on its way to the place it was preempted at",
			cur_task(e)->rtid, eng_describe_stop(e, k, st));
	}
	eng_load_next(e);
	return dispatch(e, k);
}

uint64_t eng_rematch_rip(struct engine *e)
{
	int i;
	uint64_t rip = rerun_rip(e, &i);
	uint64_t want;
	if (!rip)
		return 0;
	/* Counted: first run to the recorded count, with no int3 at the
	 * rip (each arrival there would cost a stop), then search. */
	if (e->rm.cstate == RMC_NONE) {
		struct eng_task *t = &e->tasks[i];
		struct pt_proc *p = i == e->ti ? &e->p : &t->p;
		e->rm.cstate = RMC_DONE;
		if (trace_count(eng_peek_next(e, 1), &want) == 0 &&
		    count_arm(p, t->rtgid, t->rtid, want) > 0)
			e->rm.cstate = RMC_ARMED;
	}
	return e->rm.cstate == RMC_ARMED ? 0 : rip;
}

int eng_count_trapped(struct engine *e)
{
	int t = e->rm.ctrap;
	e->rm.ctrap = 0;
	return t;
}

int eng_step(struct engine *e)
{
	return eng_resume(e, 0) != ENG_EXIT;
}

int eng_regs(struct engine *e, struct user_regs_struct *r)
{
	if (cur_task(e)->state == ET_GONE || ptrace(PTRACE_GETREGS, e->p.pid, 0, r) < 0) {
		memset(r, 0, sizeof *r);
		return -1;
	}
	if (e->cur.kind == TR_SYSCALL && e->cur.tid == cur_task(e)->rtid && (int64_t)r->orig_rax == -1)
		r->orig_rax = (int32_t)get32(e->cur.p);
	return 0;
}

int eng_task_regs(struct engine *e, const struct eng_task *k, struct user_regs_struct *r)
{
	int cur = k == &e->tasks[e->ti];
	if (k->state == ET_KERNEL && (cur ? e->stop : k->stop) == PS_OTHER) {
		*r = k->kregs;
		return 0;
	}
	if (cur)
		return eng_regs(e, r);
	if (k->state == ET_GONE || ptrace(PTRACE_GETREGS, k->p.pid, 0, r) < 0) {
		memset(r, 0, sizeof *r);
		return -1;
	}
	return 0;
}

void eng_ready(struct engine *e)
{
	const struct trace_rec *nx = eng_peek(e);
	if (!e->started || !nx || nx->kind == TR_START)
		return;
	int i = find_task(e, nx->tid);
	if (i >= 0)
		eng_switch_task(e, i);
}

void eng_close(struct engine *e)
{
	eng_kill_all(e);
	emufs_close(&e->fs);
	trace_close(&e->r);
	free(e->curbuf);
	free(e->aheadbuf);
	for (int i = 0; i < e->ntasks; i++)
		free(e->tasks[i].entry);
	free(e->tasks);
	e->tasks = NULL;
	e->ntasks = e->made = e->kept = 0;
}

void eng_injected(struct engine *e, struct eng_task *k, const struct user_regs_struct *r)
{
	if (k->state == ET_INCALL) {
		if (eng_reenter(&k->p, r) < 0)
			die(EXIT_TRACE, "event %llu: thread %u cannot enter its call again",
			    (unsigned long long)e->cur.event, k->rtid);
		k->stop = PS_SECCOMP;
	} else {
		k->stop = PS_SYSEXIT;
	}
	if (k == cur_task(e))
		e->stop = k->stop;
}

void eng_set_hooks(struct engine *e, const struct eng_hooks *h)
{
	e->emit = h->emit;
	e->mapped = h->mapped;
	e->interrupt = h->interrupt;
	e->ctx = h->ctx;
}

void eng_set_opts(struct engine *e, const struct eng_opts *o)
{
	e->batch = o->batch;
	e->limit = o->limit;
	e->lazy = o->lazy;
	e->debug = o->debug;
}

void eng_hook_pages(struct engine *e, int (*fault)(void *arg, const siginfo_t *si),
		    void (*perform)(void *arg), void *arg)
{
	e->fault = fault;
	e->perform = perform;
	e->hook_arg = arg;
}

void eng_set_reexec(struct engine *e, uint32_t pid)
{
	e->reexec = pid;
}

void eng_left_at_sysexit(struct engine *e)
{
	e->stop = PS_SYSEXIT;
}
