/* records.c: the records of a signal delivered (TR_SIGNAL) and of a
 * thread's whole state or its point (TR_PREEMPT), written for sig.c and
 * ptemu.c. */
#include "bufdrain.h"
#include "cap.h"
#include "count.h"
#include "dirty.h"
#include "events.h"
#include "pos.h"
#include "rec.h"
#include "records.h"
#include "robust.h"
#include "task.h"
#include "trapact.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

void record_signal(int sig, int flags, const siginfo_t *si)
{
	trapact_delivered(sig, si);
	begin(TR_SIGNAL, 0);
	tw_put32(&R.w, sig);
	tw_put32(&R.w, flags);
	tw_put(&R.w, si, 128);
	/* Where the instruction stream raised it: the count, which bounds
	 * how far replay lets the thread run looking for it. (rec's own
	 * arming for an advance is dropped by now: advance_stopped.) */
	uint64_t n;
	if (!(flags & TRS_ASYNC) && count_get(&cur->p, cur->tgid, cur->p.pid, &n) == 0)
		tw_item(&R.w, IT_COUNT, 0, &n, 8, NULL, 0);
	/* One that ends the process (default action, neither caught nor
	 * ignored): the marks of its robust mutexes, which replay writes
	 * before it delivers the signal. */
	uint64_t caught, ign, bit = 1ull << (sig - 1);
	if (sig != SIGCHLD && sig != SIGCONT && sig != SIGURG && sig != SIGWINCH &&
	    sig != SIGSTOP && sig != SIGTSTP && sig != SIGTTIN && sig != SIGTTOU &&
	    pt_status_hex(cur->p.pid, "SigCgt:", &caught) == 0 && !(caught & bit) &&
	    pt_status_hex(cur->p.pid, "SigIgn:", &ign) == 0 && !(ign & bit))
		process_robust_marks(cur->tgid, &R.w);
	tw_end(&R.w);
}

static struct pos_shadow last;		/* each block as last recorded */
static struct pos_gone gone;		/* the threads' stack pointers (pos.h) */

#define MAXDEAD 64
/* How far below the stack pointer it came at a handler's frame may lie,
 * on the same stack. */
#define SIG_SPAN (1ull << 20)

struct calls_out {
	uint64_t (*dead)[2];
	int n;
};

static void call_out_dead(void *ctx, uint64_t addr, const void *data, size_t len)
{
	struct calls_out *c = ctx;
	(void)data;
	if (c->n < MAXDEAD) {
		c->dead[c->n][0] = addr;
		c->dead[c->n++][1] = addr + len;
	}
}

/* The dead stacks of cur's process (pos_dead_stacks) into dead: below
 * its threads' stack pointers (one inside a call: at its entry), and
 * below those of the ones gone since, as the last record noted them;
 * then the outputs of the calls its other threads are inside. */
static int dead_of_cur(const struct user_regs_struct *regs, uint64_t (*dead)[2])
{
	uint64_t sps[MAXDEAD];
	uint32_t tids[MAXDEAD];
	int n = 0;
	for (int i = 0; i < R.ntasks && n < MAXDEAD; i++) {
		struct task *t = R.tasks[i];
		struct user_regs_struct r;
		if (t->tgid != cur->tgid ||
		    (t->state == T_KERNEL && (t->nr == SYS_exit || t->nr == SYS_exit_group)))
			continue;	/* on its way out: replay has none there */
		tids[n] = t->p.pid;
		/* Another thread at a call (its entry, or its end): what lies
		 * in its red zone is stale, left by calls before, and the
		 * buffering library's path there may differ in replay. */
		if (t == cur)
			sps[n++] = regs->rsp;
		else if (t->state == T_KERNEL)
			sps[n++] = t->entry_regs.rsp + POS_RED_ZONE;
		else if (ptrace(PTRACE_GETREGS, t->p.pid, 0, &r) == 0)
			sps[n++] = r.rsp + (t->at_exit && !memcmp(&r, &t->exit_regs, sizeof r) ?
					    POS_RED_ZONE : 0);
		else
			continue;
		/* Another thread inside a call into the buffering library
		 * (below its lib_sp, bufabi.h): the library's frames there,
		 * the registers it left in a signal frame above them and
		 * the red zone it left under one, differ between rec and
		 * replay. It is stopped, so they tell no arrival from
		 * another: left out, as dead. */
		uint64_t lsp = t == cur ? 0 : t->lib_holds ? buf_lib_sp(&t->p) : t->lib_sp;
		if (lsp && lsp + POS_RED_ZONE > sps[n - 1])
			sps[n - 1] = lsp + POS_RED_ZONE;	/* dead up to lsp itself */
		/* So are a signal's frame and its handler's on its stack (not
		 * an alternate one, far away): the frame holds bytes the
		 * kernel did not write (sig_resume). */
		if (t != cur && t->sig_top > sps[n - 1] && t->sig_top - sps[n - 1] < SIG_SPAN)
			sps[n - 1] = t->sig_top + POS_RED_ZONE;
	}
	n = pos_gone_sps(&gone, cur->tgid, sps, tids, n, MAXDEAD);
	struct calls_out c = { dead, pos_dead_stacks(cur->p.pid, sps, n, dead, MAXDEAD) };
	/* What another thread's call under way may write: the kernel may
	 * have written it already, where replay, at the call's entry, has
	 * not (gdb's pread64 of /proc/PID/mem into its stack, at a point
	 * of its worker thread, under load: t1195). */
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		if (t != cur && t->tgid == cur->tgid && t->state == T_KERNEL)
			cap_output_ranges(&t->p, sys_row(t->nr), t->a, call_out_dead, &c);
	}
	return c.n;
}

/* Each thread's registers at its last TR_PREEMPT. */
static struct { pid_t tgid, tid; struct user_regs_struct r; } *lastp;
static int nlastp;

static void note_regs(const struct user_regs_struct *r)
{
	int i = 0;
	while (i < nlastp && lastp[i].tid != cur->p.pid)
		i++;
	if (i == nlastp)
		lastp = xrealloc(lastp, ++nlastp * sizeof *lastp);
	lastp[i].tgid = cur->tgid;
	lastp[i].tid = cur->p.pid;
	lastp[i].r = *r;
}

/* Whether thread t of cur's process is where the trace has it: inside a
 * call it has not ended yet, or stopped where its last record left it (a
 * syscall's end, a preemption). One that ran since, to a stop rec has not
 * taken yet, wrote memory that replay writes only after this record, so a
 * point's hashes would hold what replay cannot have there. */
static int settled(const struct task *t)
{
	struct user_regs_struct r;
	if (t == cur)
		return 1;
	/* Inside a call, unless it has ended it: the kernel wrote the
	 * call's outputs before its exit stop, which waits for rec, and
	 * replay writes them only at the end's record, after this one (a
	 * gdb thread's pread of its inferior's memory, ended while a worker
	 * computed, put 5 bytes in the point's hashes that replay had not;
	 * t1195). Peeked at (WNOWAIT): the stop stays for wait_any. */
	if (t->state == T_KERNEL) {
		siginfo_t si = { 0 };
		return waitid(P_PID, t->p.pid, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) < 0 ||
		       si.si_pid != t->p.pid;
	}
	if (ptrace(PTRACE_GETREGS, t->p.pid, 0, &r) < 0)
		return 0;
	if (t->at_exit && !memcmp(&r, &t->exit_regs, sizeof r))
		return 1;
	if (!memcmp(&r, &t->born_regs, sizeof r))
		return 1;	/* not run since its clone made it */
	for (int i = 0; i < nlastp; i++)
		if (lastp[i].tid == t->p.pid)
			return !memcmp(&r, &lastp[i].r, sizeof r);
	return 0;
}

/* Whether every thread of cur's process is settled. */
static int all_settled(void)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->tgid == cur->tgid && !settled(R.tasks[i]))
			return 0;
	return 1;
}

/* The half of is_point() that holds wherever cur is (records.h). */
int record_could_point(void)
{
	uint64_t count;
	return !cur->tracer && count_get(&cur->p, cur->tgid, cur->p.pid, &count) == 0 &&
	       !env_flag("REWIND_NO_POINTS") && all_settled() &&
	       count_seen_all(cur->p.pid, cur->tgid);
}

/* cur stopped where it ran, counted: a point (TRP_POINT) when it
 * stopped at a counted edge's trap (advance.h), so that the count alone
 * tells the place and replay compares one arrival; every other thread of
 * its process is settled, and REWIND_NO_POINTS=1 is not set. Not
 * at a stop that came at a syscall's end (orig_rax tells: an interrupt
 * of user code leaves -1): there the kernel may restart the call, a
 * state that no run of the thread's code reaches. Inside a signal
 * handler too: the stale stack bytes the kernel's XSAVE leaves in a
 * frame (components in their initial state are skipped) are the same in
 * replay, since every frame is zeroed at its rt_sigreturn
 * (pos_scrub_frame). */
static int is_point(const struct user_regs_struct *regs, uint64_t flags, uint64_t *count)
{
	return (flags & TRP_RAN) && cur->at_edge && (int64_t)regs->orig_rax == -1 && record_could_point() &&
	       count_get(&cur->p, cur->tgid, cur->p.pid, count) == 0 &&
	       !count_in_tramp(cur->tgid, regs->rip) && !count_moved(cur->tgid, regs->rip);
}

void record_forget(pid_t tgid)
{
	pos_shadow_forget(&last, tgid);
	pos_gone_forget(&gone, tgid);
	for (int i = 0; i < nlastp; i++)
		if (lastp[i].tgid == tgid)
			lastp[i--] = lastp[--nlastp];
}

static struct pos_store written;	/* blocks already in the trace */

/* The blocks of the TR_PREEMPT record begun, after its IT_HASHES: each
 * that holds something the trace has not yet, whole (IT_BLOCK) or as its
 * XOR with the copy of what was recorded there last (IT_XBLOCK). Their
 * bytes are ps->data's, or read again (ps->data NULL): -1 then when one
 * no longer hashes as IT_HASHES says, and the record is to be made
 * again (tw_cancel). act[] is block_items'. */
static int put_blocks(struct pos *ps, const uint8_t *act)
{
	static uint8_t bytes[POS_BLOCK], xor[POS_BLOCK];
	for (int i = 0; i < ps->nb; i++) {
		const struct pos_block *b = &ps->b[i];
		const uint8_t *d = ps->data ? ps->data[i] : bytes;
		if (!ps->full[i])
			continue;
		if (!ps->data && !pos_read(&cur->p, b, bytes))
			return -1;
		if (act[i] == IT_XBLOCK) {
			uint64_t h[2] = { b->hash };
			const uint8_t *base = pos_shadow_get(&last, cur->tgid, b->addr, b->len, &h[1]);
			for (uint64_t k = 0; k < b->len; k++)
				xor[k] = d[k] ^ base[k];
			tw_item(&R.w, IT_XBLOCK, 0, h, 16, xor, b->len);
		} else if (act[i] == IT_BLOCK) {
			tw_item(&R.w, IT_BLOCK, 0, &b->hash, 8, d, b->len);
		}
		pos_shadow_set(&last, cur->tgid, b->addr, b->len, b->hash, d);
	}
	return 0;
}

/* Which item each block of ps is written as (act[i]: IT_BLOCK,
 * IT_XBLOCK, or 0 for none: all zeros, or its bytes are in the trace
 * already), and the bytes those items take. */
static size_t block_items(const struct pos *ps, uint8_t *act)
{
	struct pos_store mine = { 0 };	/* the hashes given in this record */
	size_t size = 0;
	for (int i = 0; i < ps->nb; i++) {
		const struct pos_block *b = &ps->b[i];
		act[i] = 0;
		if (!ps->full[i] || pos_store_has(&written, b->hash) || pos_store_has(&mine, b->hash))
			continue;
		pos_store_add(&mine, b->hash, (const uint8_t *)"", 0);
		act[i] = pos_shadow_has(&last, cur->tgid, b->addr, b->len) ? IT_XBLOCK : IT_BLOCK;
		size += 8 + (act[i] == IT_XBLOCK ? 16 : 8) + b->len;
	}
	pos_store_free(&mine);
	return size;
}

int record_state(struct user_regs_struct *regs, uint64_t flags)
{
	static uint8_t bytes[POS_BLOCK];
	static uint8_t xs[65536];
	struct pos ps;
	ssize_t xlen = pt_getxstate(&cur->p, xs, sizeof xs);
	int uffd = dirty_fd(cur->tgid);
	if (xlen < 0 || pos_take_since(&cur->p, uffd, &ps) < 0) {
		int e = errno;
		if (pt_dying(cur->p.pid))
			return -1;	/* killed from outside: its end comes next */
		errno = e;
		stop_recording(EXIT_TRACE, "cannot read the state of thread %d: %s", cur->p.pid,
			       xlen < 0 ? "no FP/vector state" : errno == EFBIG ?
			       "its writable memory is too large to read without PAGEMAP_SCAN" :
			       strerror(errno));
	}
	uint64_t count, dead[MAXDEAD][2];
	int point = is_point(regs, flags, &count);
	note_regs(regs);
	int nd = count_on() ? dead_of_cur(regs, dead) : 0;	/* at every counted record: it notes them */
	if (point) {
		/* Replay re-executes to it: the hashes (of the bytes with
		 * the dead stacks as zeros) tell it is there; the bytes stay
		 * out, and so out of the copies later changes are made from. */
		for (int i = 0; i < ps.nb; i++)
			if (ps.full[i]) {
				pos_read(&cur->p, &ps.b[i], bytes);
				ps.b[i].hash = pos_hash_masked(ps.b[i].addr, bytes, ps.b[i].len,
							       (const uint64_t (*)[2])dead, nd);
			}
		flags |= TRP_POINT;
	}
	int counted = point || count_get(&cur->p, cur->tgid, cur->p.pid, &count) == 0;
	uint8_t *act = xmalloc(ps.nb ? ps.nb : 1);
	begin(TR_PREEMPT, 0);
	uint64_t event = R.event - 1;
	/* The memory is read again as its blocks are written, and the
	 * record streamed when large, so that neither is held whole. A
	 * block that changed in between (only the kernel writes there now)
	 * makes the record again, from bytes held this time. */
	for (;;) {
		memset(act, 0, ps.nb);
		size_t size = TRACE_REC_HDR + 16 + 8 + sizeof *regs + 8 + xlen + 8 +
			      ps.nb * sizeof *ps.b + (counted ? 16 : 0) +
			      (point ? 8 + nd * sizeof dead[0] : block_items(&ps, act));
		tw_size(&R.w, size);
		tw_put64(&R.w, regs->rip);
		tw_put64(&R.w, flags | (uffd >= 0 ? TRP_SINCE : 0));
		tw_item(&R.w, IT_REGS, 0, regs, sizeof *regs, NULL, 0);
		tw_item(&R.w, IT_XSTATE, 0, xs, xlen, NULL, 0);
		tw_item(&R.w, IT_HASHES, 0, ps.b, ps.nb * sizeof *ps.b, NULL, 0);
		if (counted)
			tw_item(&R.w, IT_COUNT, 0, &count, 8, NULL, 0);
		if (point)
			tw_item(&R.w, IT_DEAD, 0, dead, nd * sizeof dead[0], NULL, 0);
		if (point || put_blocks(&ps, act) == 0)
			break;
		tw_cancel(&R.w);
		pos_shadow_forget(&last, cur->tgid);	/* it holds some of the new bytes */
		pos_fill(&cur->p, &ps);
		tw_begin(&R.w, TR_PREEMPT, 0, event, cur->p.pid);
	}
	tw_end(&R.w);
	for (int i = 0; i < ps.nb; i++)
		if (act[i])
			pos_store_add(&written, ps.b[i].hash, (const uint8_t *)"", 0);
	free(act);
	pos_free(&ps);
	return 0;
}
