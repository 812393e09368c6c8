/* engtask.c: the replay engine's threads: switching between them, waiting
 * for a stop and telling what it was, writing a record's memory into the
 * tracee, and reporting a divergence. */
#include "cap.h"
#include "engint.h"
#include "tsc.h"
#include "sys.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31)
#endif

int eng_same_end(int want, int got)
{
	return want == got || (WIFSIGNALED(want) && WIFSIGNALED(got) && (want ^ got) == 0x80);
}

void eng_diverge(struct engine *e, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Every thread, not only this one: the first thread of a process
	 * is not reaped while another that ended is not, and waiting for
	 * it alone would wait for ever. */
	if (e->started && !e->done)
		eng_kill_all(e);
	die(EXIT_TRACE, "divergence at event %llu: %s", (unsigned long long)e->cur.event, msg);
}

const char *eng_sysname(long nr)
{
	static char buf[32];
	const struct sys_entry *s = sys_lookup(nr);
	if (s)
		return s->name;
	snprintf(buf, sizeof buf, "syscall_%ld", nr);
	return buf;
}

/* Make task i the current one: its state moves into the engine's
 * fields, the previous one's back into its slot. */
void eng_save_cur(struct engine *e)
{
	struct eng_task *t = cur_task(e);
	t->p = e->p;
	t->stop = e->stop;
	t->pending_sig = e->pending_sig;
	t->raised = e->raised;
	t->how = e->how;
}

void eng_load_cur(struct engine *e)
{
	struct eng_task *t = cur_task(e);
	e->p = t->p;
	e->stop = t->stop;
	e->pending_sig = t->pending_sig;
	e->raised = t->raised;
	e->how = t->how;
}

void eng_switch_task(struct engine *e, int i)
{
	if (i == e->ti)
		return;
	eng_save_cur(e);
	e->ti = i;
	eng_load_cur(e);
}

int eng_add_task(struct engine *e, uint32_t rtid, uint32_t rtgid, pid_t pid)
{
	e->tasks = xrealloc(e->tasks, (e->ntasks + 1) * sizeof *e->tasks);
	struct eng_task *t = &e->tasks[e->ntasks];
	memset(t, 0, sizeof *t);
	t->rtid = rtid;
	t->rtgid = rtgid;
	t->p.pid = pid;
	t->p.memfd = -1;
	t->stop = PS_SIGNAL;
	t->alt[1] = SS_DISABLE;
	t->born = e->made++;
	return e->ntasks++;
}

/* Every lookup of a thread, and each thread's end, walked e->tasks:
 * LTP's keyctl02 (80,000 threads made and joined one after another)
 * replayed in 163 s, 59x its native run, and held 4 KiB a thread ever
 * made. Dropped each time they have doubled, the gone slots cost a walk
 * of their own once. */
void eng_drop_gone(struct engine *e)
{
	if (e->ntasks < 64 || e->ntasks < 2 * e->kept)
		return;
	eng_save_cur(e);
	int n = 0, ti = 0;
	for (int i = 0; i < e->ntasks; i++) {
		struct eng_task *t = &e->tasks[i];
		if (t->state == ET_GONE && i != e->ti) {
			if (t->p.memfd >= 0)
				close(t->p.memfd);
			free(t->entry);
			continue;
		}
		if (i == e->ti)
			ti = n;
		if (n != i)
			e->tasks[n] = *t;
		n++;
	}
	e->tasks = xrealloc(e->tasks, n * sizeof *e->tasks);
	e->ntasks = e->kept = n;
	e->ti = ti;
	eng_load_cur(e);
}

/* The hang watch. Replay takes nothing from outside and runs one thread
 * at a time: a thread it waits for that sleeps in a call for seconds,
 * while no other runs, can never be woken (the recording went on, so
 * this is a divergence). A timer looks once a second (REWIND_NO_HANG_CHECK=1:
 * none); what it reads while eng_wait_stop blocks (hw.e set) does not
 * change under it. */
static struct {
	struct engine *volatile e;	/* waiting in eng_wait_stop */
	volatile sig_atomic_t fired;
	unsigned long stops;		/* stops seen, for "no progress" */
	unsigned long seen;
	pid_t pid;
	long nr;
	int streak;
	char msg[512];
} hw;

/* Thread pid's state letter, and in *nr the call it sleeps in (-1 for
 * none); 0 when it cannot be read. Async-signal-safe. */
static char proc_state(pid_t pid, long *nr)
{
	char buf[512];
	*nr = -1;
	const char *st = pt_stat(pid, buf, sizeof buf);
	if (!st)
		return 0;
	char state = *st;
	if (pt_proc_read(pid, "syscall", buf, sizeof buf) > 0 && buf[0] >= '0' && buf[0] <= '9')
		*nr = strtol(buf, NULL, 10);
	return state;
}

static void hw_tick(int sig)
{
	(void)sig;
	struct engine *e = hw.e;
	long nr;
	char state = e ? proc_state(e->p.pid, &nr) : 0;
	if ((state != 'S' && state != 'D') || nr < 0 || e->p.pid != hw.pid || nr != hw.nr ||
	    hw.stops != hw.seen) {
		hw.streak = 0;
		hw.pid = e ? e->p.pid : 0;
		hw.nr = e ? nr : -1;
		hw.seen = hw.stops;
		return;
	}
	char held[200] = "";
	size_t n = 0;
	for (int i = 0; i < e->ntasks; i++) {
		struct eng_task *t = &e->tasks[i];
		long tnr;
		if (i == e->ti || t->state == ET_GONE)
			continue;
		if (proc_state(t->p.pid, &tnr) == 'R') {
			hw.streak = 0;
			return;
		}
		if (n < sizeof held)
			n += snprintf(held + n, sizeof held - n, "%s%u", n ? ", " : "", t->rtid);
	}
	/* Asleep three seconds; ten in a disk wait ('D'), which a slow
	 * disk makes long too. */
	if (++hw.streak < (state == 'D' ? 10 : 3))
		return;
	snprintf(hw.msg, sizeof hw.msg, "every thread of the program waits for what only replay "
		 "could end: thread %u sleeps in %s, where nothing in the replay can wake it%s%s "
		 "(REWIND_NO_HANG_CHECK=1 waits instead)", cur_task(e)->rtid, eng_sysname(nr),
		 n ? "; held by replay: " : "", held);
	hw.fired = 1;
	kill(e->p.pid, SIGKILL);	/* the wait ends; the rest are killed after */
}

/* Start the hang watch's timer, once. */
static void hw_start(void)
{
	static int started;
	if (started++)
		return;
	if (env_flag("REWIND_NO_HANG_CHECK"))
		return;
	struct sigaction sa = { .sa_handler = hw_tick, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMAX, &sa, NULL);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMAX };
	timer_t tm;
	struct itimerspec it = { { 1, 0 }, { 1, 0 } };
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) == 0)
		timer_settime(tm, 0, &it, NULL);
}

/* Wait for the next stop that matters, passing over signals sent from
 * outside the replay (a Ctrl-C aimed at the terminal's process group):
 * those happened in some other run, not in the recorded one. */
int eng_wait_stop(struct engine *e, int *st)
{
	hw_start();
	for (;;) {
		int intr = 0;
		hw.e = e;
		int r = pt_wait(&e->p, st, e->interrupt ? &intr : NULL);
		hw.e = NULL;
		hw.stops++;
		if (hw.fired)
			eng_diverge(e, "%s", hw.msg);
		if (r < 0) {
			if (!intr)
				die(EXIT_TRACE, "wait: %s", strerror(errno));
			if (!e->stopping && e->interrupt(e->ctx)) {
				e->stopping = 1;
				syscall(SYS_tkill, e->p.pid, SIGSTOP);
			}
			continue;
		}
		int k = pt_classify(*st);
		if (k == PS_EXITED) {
			if (e->made <= 1)
				e->done = 1;
			else
				cur_task(e)->state = ET_GONE;
			return k;
		}
		if (k != PS_SIGNAL)
			return k;
		siginfo_t si;
		if (ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &si) < 0) {
			pt_resume(&e->p, e->how, 0);	/* group-stop */
			continue;
		}
		if (e->stopping && si.si_signo == SIGSTOP && si.si_pid == getpid()) {
			e->stopping = 0;
			return PS_INTR;
		}
		/* A CPUID that faults for replay alone (tsc.h): the recording
		 * CPU's answer, and on; a step ends after it. */
		uint32_t in[2];
		int cpuid = tsc_table_cpuid(&e->p, &si, in);
		if (cpuid < 0)
			eng_diverge(e, "cpuid leaf 0x%x subleaf 0x%x is not in the table of the "
				    "recording CPU (%s/cpu)", in[0], in[1], e->dir);
		if (cpuid) {
			if (e->how != RESUME_STEP) {
				pt_resume(&e->p, e->how, 0);
				continue;
			}
			si = (siginfo_t){ .si_signo = SIGTRAP, .si_code = TRAP_TRACE };
			ptrace(PTRACE_SETSIGINFO, e->p.pid, 0, &si);
			*st = SIGTRAP << 8 | 0x7f;
		}
		/* Only faults and what we raise: the signals this run's
		 * children and timers send happened in some other run. */
		int fault = (si.si_signo == SIGSEGV || si.si_signo == SIGBUS || si.si_signo == SIGILL ||
			     si.si_signo == SIGFPE || si.si_signo == SIGTRAP || si.si_signo == SIGSYS) &&
			    si.si_code > 0;
		if (!fault && si.si_pid != getpid()) {
			pt_resume(&e->p, e->how, 0);
			continue;
		}
		return k;
	}
}

const char *eng_describe_stop(struct engine *e, int k, int st)
{
	static char buf[128];
	struct user_regs_struct r;
	switch (k) {
	case PS_EXITED:
		if (WIFEXITED(st))
			snprintf(buf, sizeof buf, "the program exited with status %d", WEXITSTATUS(st));
		else
			snprintf(buf, sizeof buf, "the program was killed by signal %d", WTERMSIG(st));
		return buf;
	case PS_SECCOMP:
		pt_getregs(&e->p, &r);
		snprintf(buf, sizeof buf, "syscall %s", eng_sysname(r.orig_rax));
		return buf;
	case PS_SIGNAL:
		snprintf(buf, sizeof buf, "signal %d", WSTOPSIG(st));
		return buf;
	}
	snprintf(buf, sizeof buf, "stop 0x%x", st);
	return buf;
}

/* Check that the stop the tracee came to is the one the event expects. */
void eng_expect(struct engine *e, int k, int want, const char *expected)
{
	if (k != want)
		eng_diverge(e, "expected %s, got %s", expected, eng_describe_stop(e, k, e->status));
}

/* The current thread set its alternate signal stack from the stack_t at
 * ss: note it for checkpoints (no call reads it back without changing
 * the thread). */
void eng_note_altstack(struct engine *e, uint64_t ss)
{
	uint64_t v[3];
	if (pt_read(&e->p, ss, v, sizeof v) != sizeof v)
		return;
	struct eng_task *t = cur_task(e);
	t->alt[0] = v[0];
	t->alt[1] = (uint32_t)v[1] & (SS_DISABLE | SS_AUTODISARM);
	t->alt[2] = v[2];
	if (t->alt[1] & SS_DISABLE)
		t->alt[0] = t->alt[2] = 0;
}

struct eng_moved eng_moved;

/* The bytes of IT_EMITSUM it of rec, the current thread's write-family
 * call: read again where the call took them (its recorded arguments, or
 * at a TR_SYSRET those in its registers, which the call keeps), checked
 * against the recorded hash, and handed to e->emit. */
static void emit_sum(struct engine *e, const struct trace_rec *rec, const struct trace_item *it)
{
	if (it->len < 16)
		eng_bad_record(e, "short output item");
	uint64_t len = get64(it->p), want = get64(it->p + 8), a[6];
	struct trace_syscall sc;
	if (trace_syscall(rec, &sc) == 0) {
		memcpy(a, sc.args, sizeof a);
	} else {
		struct user_regs_struct r;
		pt_getregs(&e->p, &r);
		pt_args(&r, a);
		sc.nr = rec->size >= 4 ? (int32_t)get32(rec->p) : -1;
	}
	uint8_t *b = xmalloc(len ? len : 1);
	ssize_t n = cap_sent(&e->p, sc.nr, a, b, len);
	if (n != (ssize_t)len || hash_final(hash_update(HASH_INIT, b, len), len) != want)
		eng_diverge(e, "%s to %s: %s", eng_sysname(sc.nr), it->flags == 1 ? "stdout" : "stderr",
			    n != (ssize_t)len ? "its bytes cannot be read again" :
			    "its bytes differ from the recording's");
	e->emit(e->ctx, rec->event, cur_task(e)->rtgid, it->flags, b, len);
	free(b);
}

/* Write the record's IT_MEM items into the tracee, and its IT_FPATCH
 * items into the emulated files. */
void eng_apply_mem(struct engine *e, const struct trace_rec *rec)
{
	size_t off = trace_fixed_size(rec->kind);
	struct trace_item it;
	int k;
	while ((k = trace_item(rec, &off, &it)) > 0) {
		if (it.tag == IT_MEM) {
			if (it.len < 8)
				eng_bad_record(e, "short memory item");
			uint64_t at = get64(it.p);
			for (int j = 0; rec->event == eng_moved.ev && j < eng_moved.n; j++)
				if (at == eng_moved.from[j]) {
					at = eng_moved.to[j];
					break;
				}
			if (pt_write(&e->p, at, it.p + 8, it.len - 8) < 0)
				eng_diverge(e, "cannot write %u bytes at 0x%llx", it.len - 8,
					(unsigned long long)at);
		} else if (it.tag == IT_FPATCH) {
			if (emufs_patch(&e->fs, it.p, it.len) < 0)
				eng_diverge(e, "cannot change replay's copy of a mapped file: %s", strerror(errno));
		} else if (it.tag == IT_EMIT && e->emit) {
			e->emit(e->ctx, rec->event, cur_task(e)->rtgid, it.flags, it.p, it.len);
		} else if (it.tag == IT_EMITSUM && e->emit) {
			emit_sum(e, rec, &it);
		}
	}
	if (k < 0)
		eng_bad_record(e, "item overruns the record");
}

void eng_kill_all(struct engine *e)
{
	if (!e->started)
		return;
	if (e->done)	/* reaped already */
		e->tasks[e->ti].state = ET_GONE;
	e->tasks[e->ti].p = e->p;
	e->p.memfd = -1;
	for (int i = 0; i < e->ntasks; i++)
		if (e->tasks[i].state != ET_GONE)
			kill(e->tasks[i].p.pid, SIGKILL);
	/* A process's first thread is reaped last: the kernel holds it
	 * back until the others are. */
	for (int leaders = 0; leaders < 2; leaders++)
		for (int i = 0; i < e->ntasks; i++) {
			struct eng_task *t = &e->tasks[i];
			int st;
			if (t->state == ET_GONE || (t->rtid == t->rtgid) != leaders)
				continue;
			while (waitpid(t->p.pid, &st, __WALL) >= 0 && !WIFEXITED(st) && !WIFSIGNALED(st))
				;
			t->state = ET_GONE;
		}
	for (int i = 0; i < e->ntasks; i++) {
		if (e->tasks[i].p.memfd >= 0)
			close(e->tasks[i].p.memfd);
		e->tasks[i].p.memfd = -1;
	}
}

int eng_live(const struct engine *e)
{
	int n = 0;
	for (int i = 0; i < e->ntasks; i++)
		n += e->tasks[i].state != ET_GONE;
	return n;
}

struct eng_task *eng_task_of(struct engine *e, uint32_t rtid)
{
	int i = find_task(e, rtid);
	if (i < 0)
		return NULL;
	if (i == e->ti)
		e->tasks[i].p = e->p;
	return &e->tasks[i];
}
