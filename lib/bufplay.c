/* bufplay.c: replays a thread's run of buffered calls without a stop each:
 * they go into its syscall buffer for the preloaded library to answer,
 * and the ones it did not answer are replayed the usual way. */
#include "bufplay.h"
#include "bufabi.h"
#include "engint.h"
#include "sys.h"
#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int n;			/* records loaded (0: none) */
	struct trace_pos *pos;	/* pos[i]: where record i starts (i >= 1),
				   pos[n]: the first record not loaded */
	int cap;
	uint8_t *data;
	size_t len, dcap;
} B;

static int fits(const struct engine *e, const struct trace_rec *r, uint32_t tid)
{
	if (r->kind != TR_SYSCALL || r->flags != TRF_BUFFERED || r->tid != tid || r->size < 64 ||
	    (e->limit && r->event >= e->limit))
		return 0;
	const struct sys_entry *s = sys_lookup(get16(r->p));
	if (!s)
		return 0;
	/* The library compares the call's inputs in the program's memory,
	 * where they must be readable, or it faults: a path is (the library
	 * read it itself, at a call that got another answer than EFAULT),
	 * and so is as much of a buffer as the kernel read. rec saves more
	 * of a write that came back short (through /proc/PID/mem, which
	 * reads a PROT_NONE page): such a call goes traced, where the
	 * engine reads its inputs through ptrace. */
	int64_t ret = (int64_t)get64(r->p + 56);
	for (uint32_t off = 64; off + 8 <= r->size; off += 8 + get32(r->p + off + 4)) {
		uint16_t argi = get16(r->p + off + 2);
		uint32_t len = get32(r->p + off + 4);
		if (get16(r->p + off) != IT_ARG)
			continue;
		if (argi >= 6 || len < 8)
			return 0;
		if (sys_kind(s->arg[argi]) == A_STR ? ret == -EFAULT : ret < (int64_t)(len - 8))
			return 0;
	}
	/* rt_sigaction that only asks changes nothing replay must do. */
	return s->class == C_EMU || (get16(r->p) == SYS_rt_sigaction && get64(r->p + 16) == 0);
}

static int add(const struct trace_rec *r)
{
	size_t need = (BUF_ENT_HDR + r->size + 7) & ~(size_t)7;
	if (B.len + need > BUF_DATA_SIZE)
		return 0;
	if (B.len + need > B.dcap) {
		B.dcap = B.dcap ? 2 * B.dcap : 1 << 16;
		if (B.dcap < B.len + need)
			B.dcap = B.len + need;
		B.data = xrealloc(B.data, B.dcap);
	}
	uint32_t h[2] = { r->size, 0 };
	memcpy(B.data + B.len, h, 8);
	memcpy(B.data + B.len + 8, r->p, r->size);
	memset(B.data + B.len + 8 + r->size, 0, need - 8 - r->size);
	B.len += need;
	return 1;
}

static void at(int i, const struct trace_pos *p)
{
	if (i >= B.cap) {
		B.cap = B.cap ? 2 * B.cap : 256;
		B.pos = xrealloc(B.pos, B.cap * sizeof *B.pos);
	}
	B.pos[i] = *p;
}

int bufplay_load(struct engine *e)
{
	B.n = 0;
	const struct trace_rec *nx = e->held ? &e->ahead : NULL;
	struct buf_hdr h;
	uint32_t tid = nx ? nx->tid : 0;
	/* A library busy here runs its recording path under replay: one
	 * that decided in can() before it set busy (traces made before
	 * that was fixed) goes on so from a preemption rec took there. It
	 * is about to log an entry into the buffer: no run goes there
	 * meanwhile. */
	if (!e->batch || !nx || !fits(e, nx, tid) ||
	    pt_read(&e->p, BUF_HDR, &h, sizeof h) != sizeof h || h.magic != BUF_MAGIC ||
	    h.mode == BUF_MODE_REC || h.busy)
		return 0;
	B.len = 0;
	if (!add(nx))
		return 0;
	B.n = 1;
	size_t last = 0;	/* where the last entry starts */
	int natural;
	for (;;) {
		struct trace_pos p;
		struct trace_rec r;
		trace_tell(&e->r, &p);
		at(B.n, &p);
		size_t len = B.len;
		int k = trace_next(&e->r, &r);
		if (k <= 0 || !fits(e, &r, tid) || !add(&r)) {
			/* The thread stops by itself after the run when its
			 * next event is a call (one left out of the run goes
			 * traced), an rdtsc or a fault. Else (another thread's
			 * turn, a preemption, a signal raised from outside)
			 * it must not run on: its last call goes traced. */
			natural = k > 0 && r.tid == tid &&
				  (r.kind == TR_SYSCALL || r.kind == TR_RDTSC || r.kind == TR_CPUID ||
				   (r.kind == TR_SIGNAL && r.size >= 8 && !(get32(r.p + 4) & TRS_ASYNC)));
			if (trace_seek(&e->r, &p) < 0)
				die(EXIT_TRACE, "%s", e->r.err);
			break;
		}
		last = len;
		B.n++;
	}
	if (!natural) {
		B.len = last;
		if (--B.n == 0) {
			if (trace_seek(&e->r, &B.pos[1]) < 0)
				die(EXIT_TRACE, "%s", e->r.err);
			return 0;
		}
		if (trace_seek(&e->r, &B.pos[B.n]) < 0)
			die(EXIT_TRACE, "%s", e->r.err);
	}
	h.mode = BUF_MODE_REPLAY;
	h.count = B.n;
	h.consumed = 0;
	h.roff = 0;
	/* The header from mode to roff in one write: the fields between
	 * go back as read, every thread of the process being stopped. */
	size_t from = offsetof(struct buf_hdr, mode), to = offsetof(struct buf_hdr, roff) + sizeof h.roff;
	if (pt_write(&e->p, BUF_DATA, B.data, B.len) < 0 ||
	    pt_write(&e->p, BUF_HDR + from, (uint8_t *)&h + from, to - from) < 0)
		die(EXIT_TRACE, "cannot fill the syscall buffer of thread %d", e->p.pid);
	return B.n;
}

void bufplay_raw(struct engine *e)
{
	const struct trace_rec *nx = e->held ? &e->ahead : NULL, *first = nx;
	struct trace_rec r;
	struct trace_pos p;
	uint32_t raw = 0;
	if (!nx || e->p.nobuf)
		return;
	if (B.n) {	/* the record after the run loaded */
		trace_tell(&e->r, &p);
		first = trace_next(&e->r, &r) > 0 ? &r : NULL;
		raw = first && first->tid == nx->tid && first->kind == TR_SYSCALL &&
		      (first->flags & TRF_BUFFERED);
		if (trace_seek(&e->r, &p) < 0)
			die(EXIT_TRACE, "%s", e->r.err);
	} else {
		raw = first->kind == TR_SYSCALL && (first->flags & TRF_BUFFERED);
	}
	/* A process without the library has nothing there to write: it is
	 * not asked again till its library readies a buffer (engsys.c).
	 * Only this writes raw_next non-zero (rec's header and the
	 * library's keep it 0; a process's copy, a fork or a checkpoint,
	 * has a pt_proc made with it or fresh): a 0 known there is not
	 * written again. */
	if (!raw && e->p.raw_zero)
		return;
	if (pt_write(&e->p, BUF_HDR + offsetof(struct buf_hdr, raw_next), &raw, 4) < 0) {
		if (errno == EIO)
			e->p.nobuf = 1;
		return;
	}
	/* The header is the process's: what its other threads knew of it
	 * holds no more (a 1 written for one of them, left there, made
	 * another's next call skip libc's wrapper, which rec's ran). */
	for (int i = 0; i < e->ntasks; i++)
		if (e->tasks[i].rtgid == cur_task(e)->rtgid)
			e->tasks[i].p.raw_zero = !raw;
	e->p.raw_zero = !raw;
}

void bufplay_sync(struct engine *e)
{
	if (!B.n)
		return;
	struct buf_hdr h;
	uint32_t j = 0;
	/* A process that is gone answered nothing we can tell: its first
	 * call is then replayed, and found missing, the usual way. Until
	 * the next run is loaded the library answers nothing: an entry it
	 * logs itself meanwhile (see bufplay_load) is never an answer. */
	if (pt_read(&e->p, BUF_HDR, &h, sizeof h) == sizeof h && h.magic == BUF_MAGIC) {
		j = h.consumed <= (uint32_t)B.n ? h.consumed : 0;
		uint32_t zero = 0;
		pt_write(&e->p, BUF_HDR + offsetof(struct buf_hdr, mode), &zero, 4);
	}
	if (j == 0) {
		/* A library that answers nothing (of another build, say)
		 * would have every run loaded again for each call. */
		e->batch = 0;
		/* The first stays read ahead; the rest are read again. */
		if (B.n > 1 && trace_seek(&e->r, &B.pos[1]) < 0)
			die(EXIT_TRACE, "%s", e->r.err);
	} else {
		e->held = 0;
		if (trace_seek(&e->r, &B.pos[j]) < 0)
			die(EXIT_TRACE, "%s", e->r.err);
	}
	B.n = 0;
}
