/* engine.c: replays a trace event by event. Emulated syscalls are skipped
 * (orig_rax = -1) and answered from the trace; calls that shape the
 * process are performed and checked; signals and rdtsc are re-created
 * where the trace says. Any mismatch is a divergence: we stop and say so. */
#include "engint.h"
#include "bufabi.h"
#include "bufplay.h"
#include "cap.h"
#include "cpu.h"
#include "files.h"
#include "fmt.h"
#include "maps.h"
#include "pos.h"
#include "sys.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31)
#endif

static void diverge(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void diverge(struct engine *e, const char *fmt, ...)
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

static const char *sysname(long nr)
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

static void switch_task(struct engine *e, int i)
{
	if (i == e->ti)
		return;
	eng_save_cur(e);
	e->ti = i;
	eng_load_cur(e);
}

static int add_task(struct engine *e, uint32_t rtid, uint32_t rtgid, pid_t pid)
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
	return e->ntasks++;
}

#define PS_INTR 100	/* the SIGSTOP we sent to interrupt the tracee */

/* Wait for the next stop that matters, passing over signals sent from
 * outside the replay (a Ctrl-C aimed at the terminal's process group):
 * those happened in some other run, not in the recorded one. */
static int wait_stop(struct engine *e, int *st)
{
	for (;;) {
		int intr = 0;
		if (pt_wait(&e->p, st, e->interrupt ? &intr : NULL) < 0) {
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
			if (e->ntasks <= 1)
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

static const char *describe_stop(struct engine *e, int k, int st)
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
		snprintf(buf, sizeof buf, "syscall %s", sysname(r.orig_rax));
		return buf;
	case PS_SIGNAL:
		snprintf(buf, sizeof buf, "signal %d", WSTOPSIG(st));
		return buf;
	}
	snprintf(buf, sizeof buf, "stop 0x%x", st);
	return buf;
}

/* Check that the stop the tracee came to is the one the event expects. */
static void expect(struct engine *e, int k, int want, const char *expected)
{
	if (k != want)
		diverge(e, "expected %s, got %s", expected, describe_stop(e, k, e->status));
}

/* Whether another thread of t's process is inside an execve whose end
 * is still to come. */
static int sibling_execs(struct engine *e, const struct eng_task *t)
{
	for (int i = 0; i < e->ntasks; i++) {
		const struct eng_task *o = &e->tasks[i];
		if (o != t && o->rtgid == t->rtgid && o->state == ET_INCALL &&
		    o->entrylen >= 2 && sys_lookup(get16(o->entry)) &&
		    sys_lookup(get16(o->entry))->class == C_EXECVE)
			return 1;
	}
	return 0;
}

/* The current thread's execve (resumed) kills the other threads of its
 * process; the kernel finishes it once they are reaped. Reap them, and
 * check their ends against the trace. An execve from a thread other than
 * the leader gives it the leader's id: the kernel releases the leader
 * itself, and the exec's stops come from the leader's pid. */
static void exec_reap(struct engine *e)
{
	struct eng_task *me = cur_task(e);
	for (int i = 0; i < e->ntasks; i++) {
		struct eng_task *o = &e->tasks[i];
		if (o == me || o->rtgid != me->rtgid || o->state == ET_GONE)
			continue;
		if (o->rtid != o->rtgid) {
			int st;
			while (waitpid(o->p.pid, &st, __WALL) >= 0 && !WIFEXITED(st) && !WIFSIGNALED(st))
				;
			if (o->doomed && st != o->want)
				diverge(e, "expected thread %u to end with status 0x%x, got 0x%x",
					o->rtid, o->want, st);
			o->status = st;
			if (!o->doomed) {
				/* rec saw its end only after the execve's: its
				 * record comes later, and checks the status. */
				o->doomed = 2;
				if (o->p.memfd >= 0)
					close(o->p.memfd);
				o->p.memfd = -1;
				continue;
			}
		} else {
			if (!o->doomed)
				diverge(e, "thread %u lives on after thread %u's execve", o->rtid,
					me->rtid);
			e->p.pid = o->p.pid;	/* where the exec's stops come from */
			me->rtid = me->rtgid;
			o->status = o->want;
		}
		o->state = ET_GONE;
		o->doomed = 0;
		if (o->p.memfd >= 0)
			close(o->p.memfd);
		o->p.memfd = -1;
	}
}

/* The current thread set its alternate signal stack from the stack_t at
 * ss: note it for checkpoints (no call reads it back without changing
 * the thread). */
static void note_altstack(struct engine *e, uint64_t ss)
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

/* Run a syscall the tracee is stopped at the entry of, to its exit. */
static void run_call(struct engine *e, struct user_regs_struct *r)
{
	int st;
	e->how = RESUME_SYSCALL;
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	if (r->orig_rax == SYS_execve && eng_live(e) > 1)
		exec_reap(e);
	int k = wait_stop(e, &st);
	if (k == PS_EXEC) {
		pt_reopen_mem(&e->p);
		pt_resume(&e->p, RESUME_SYSCALL, 0);
		k = wait_stop(e, &st);
	}
	if (k != PS_SYSEXIT)
		diverge(e, "expected the end of the syscall, got %s", describe_stop(e, k, st));
	e->stop = PS_SYSEXIT;
	pt_getregs(&e->p, r);
}

struct argcheck {
	struct engine *e;
	const struct trace_rec *rec;
	size_t off;
	const struct sys_entry *s;
};

/* Compare one live input argument with the next IT_ARG of the record:
 * the bytes the kernel reads (a sockaddr up to its family's length, a
 * string up to its NUL, a buffer's saved prefix), not the ones around. */
static void check_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len)
{
	struct argcheck *c = ctx;
	const char *name = c->s->name;
	const uint8_t *now = data;
	struct trace_item it;
	int k;
	while ((k = trace_item(c->rec, &c->off, &it)) > 0 && it.tag != IT_ARG)
		;
	if (k <= 0 || it.flags != arg || it.len < 8)
		diverge(c->e, "%s: argument %d was not recorded", name, arg + 1);
	const uint8_t *was = it.p + 8;
	size_t wlen = it.len - 8;
	if (get64(it.p) != full)
		diverge(c->e, "%s: argument %d is %llu bytes long, the trace has %llu", name, arg + 1,
			(unsigned long long)full, (unsigned long long)get64(it.p));
	if (sys_kind(c->s->arg[arg]) == A_SOCKADDR_IN) {
		/* Lengths are equal (full): the recorded address's own length
		 * bounds both. */
		size_t m = cap_sockaddr_len(was, wlen, full);
		wlen = m;
		len = len < m ? len : m;
	}
	size_t i = 0, n = wlen < len ? wlen : len;
	while (i < n && was[i] == now[i])
		i++;
	if (i == n && wlen == len)
		return;
	/* Where one ends: a string saved shorter has its NUL there. */
	int str = sys_kind(c->s->arg[arg]) == A_STR;
	char wb[8], nb[8];
	snprintf(wb, sizeof wb, i < wlen || str ? "0x%02x" : "the end", i < wlen ? was[i] : 0);
	snprintf(nb, sizeof nb, i < len || str ? "0x%02x" : "the end", i < len ? now[i] : 0);
	diverge(c->e, "%s: argument %d differs at byte %zu: %s in the trace, %s now", name, arg + 1, i,
		wb, nb);
}

/* The pointer arguments of the call at event ev that point elsewhere
 * than in the trace (sys_enter): an IT_MEM item at a recorded pointer
 * (the output cap_outputs saved there) goes to the replayed one. */
static struct {
	uint64_t ev;
	int n;
	uint64_t from[6], to[6];
} moved;

/* Whether the trace holds all the kernel reads at, or writes to, an
 * argument of kind k, written by cap_outputs at the pointer itself. */
static int data_recorded(int k)
{
	return k == A_STR || k == A_IBUF || k == A_SOCKADDR_IN || k == A_OBUF || k == A_OUT ||
	       k == A_SOCKADDR_OUT || k == A_OARR || k == A_EPEV_OUT;
}

/* Write the record's IT_MEM items into the tracee, and its IT_FPATCH
 * items into the emulated files. */
static void apply_mem(struct engine *e, const struct trace_rec *rec)
{
	size_t off = trace_fixed_size(rec->kind);
	struct trace_item it;
	int k;
	while ((k = trace_item(rec, &off, &it)) > 0) {
		if (it.tag == IT_MEM) {
			if (it.len < 8)
				eng_bad_record(e, "short memory item");
			uint64_t at = get64(it.p);
			for (int j = 0; rec->event == moved.ev && j < moved.n; j++)
				if (at == moved.from[j]) {
					at = moved.to[j];
					break;
				}
			if (pt_write(&e->p, at, it.p + 8, it.len - 8) < 0)
				diverge(e, "cannot write %u bytes at 0x%llx", it.len - 8,
					(unsigned long long)at);
		} else if (it.tag == IT_FPATCH) {
			if (emufs_patch(&e->fs, it.p, it.len) < 0)
				diverge(e, "cannot change replay's copy of a mapped file: %s", strerror(errno));
		} else if (it.tag == IT_EMIT && e->emit) {
			e->emit(e->ctx, rec->event, cur_task(e)->rtgid, it.flags, it.p, it.len);
		}
	}
	if (k < 0)
		eng_bad_record(e, "item overruns the record");
}

/* Fill a mapping replay made anonymous with the recorded file's bytes. */
static void fill_map(struct engine *e, uint64_t addr, uint64_t len, const struct trace_item *it)
{
	const char *path = eng_blob_path(e, it, 0);
	uint64_t size = get64(it->p), off = get64(it->p + 24);
	if (off >= size)
		return;
	uint64_t n = size - off < len ? size - off : len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	static uint8_t buf[1 << 16];
	for (uint64_t done = 0; done < n;) {
		size_t want = n - done < sizeof buf ? n - done : sizeof buf;
		ssize_t k = pread(fd, buf, want, off + done);
		if (k <= 0)
			die(EXIT_TRACE, "%s: short read", path);
		if (pt_write(&e->p, addr + done, buf, k) < 0)
			diverge(e, "cannot fill the mapping at 0x%llx", (unsigned long long)addr);
		done += k;
	}
	close(fd);
	struct files_ref f;
	if (e->mapped && files_ref(it, &f) == 0)
		e->mapped(e->ctx, addr, len, path, f.path, off);
}

/* Tell e->mapped that the program of the exec record e->cur is about to
 * run from path, and its interpreter maybe from the trace's copy. */
static void note_exec(struct engine *e, const char *path)
{
	struct trace_item it;
	struct files_ref f;
	char blob[4200];
	if (!e->mapped)
		return;
	if (eng_find_item(&e->cur, IT_FILE, IF_EXE, &it) && files_ref(&it, &f) == 0)
		e->mapped(e->ctx, 0, 0, path, f.path, 0);
	if (eng_find_item(&e->cur, IT_FILE, IF_INTERP, &it) && files_ref(&it, &f) == 0) {
		files_blob(blob, sizeof blob, e->dir, f.hash);
		e->mapped(e->ctx, 0, 0, blob, f.path, 0);
	}
}

/* Whether a live replayed process maps copy i of the emulated files. */
static int emu_mapped(struct engine *e, int i)
{
	struct stat st;
	if (fstat(e->fs.f[i].fd, &st) < 0)
		return 1;
	for (int t = 0; t < e->ntasks; t++) {
		if (e->tasks[t].state == ET_GONE)
			continue;
		FILE *f = maps_open(t == e->ti ? e->p.pid : e->tasks[t].p.pid);
		int hit = 0;
		struct maps_line m;
		while (f && !hit && maps_next(f, &m))
			hit = m.ino == st.st_ino && !strncmp(m.name, "/memfd:", 7);
		if (f)
			fclose(f);
		if (hit)
			return 1;
	}
	return 0;
}

/* Perform the mmap e->cur (registers r at its seccomp stop, arguments
 * a) on replay's copy of the file it maps (items fi, IT_FILE, and ei,
 * IT_EMUFILE): the copy is opened in the program through /proc, mapped,
 * and closed, by injected calls. Every mapping of the file then shares
 * the copy's pages, as they shared the file's. */
static void map_emulated(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
			 uint64_t a[6], const struct trace_item *fi, const struct trace_item *ei)
{
	struct files_ref f;
	if (ei->len < 20 || files_ref(fi, &f) < 0)
		eng_bad_record(e, "bad file item");
	uint64_t dev = get64(ei->p), ino = get64(ei->p + 8);
	int writable = get32(ei->p + 16) != 0;
	int i = emufs_find(&e->fs, dev, ino);
	if (i < 0 || !emufs_holds(&e->fs, i, f.size, f.hash)) {
		/* A copy that no process maps can be made the file's bytes
		 * again: nothing has seen the difference. */
		if (i >= 0 && emu_mapped(e, i))
			diverge(e, "%s holds other bytes than replay's copy of it: something outside the "
				"recording changed it while it was mapped shared", f.path);
		i = emufs_load(&e->fs, i, dev, ino, eng_blob_path(e, fi, 0), f.size);
		if (i < 0)
			diverge(e, "cannot make replay's copy of %s: %s", f.path, strerror(errno));
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/fd/%d", getpid(), e->fs.f[i].fd);
	size_t plen = strlen(path) + 1;
	/* The path goes below the red zone, where a signal frame would go
	 * (a thread's stack may be small), and its bytes come back after. */
	uint64_t at = r->rip - 2, sp = (r->rsp - 128 - plen) & ~15ull, fd = -EIO, ret = -EIO, cr;
	uint8_t save[64];
	if (pt_read(&e->p, sp, save, plen) != (ssize_t)plen || pt_write(&e->p, sp, path, plen) < 0)
		diverge(e, "cannot place a path on the stack");
	uint64_t oa[6] = { (uint64_t)(int64_t)AT_FDCWD, sp, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC };
	eng_inject(&e->p, r, at, SYS_openat, oa, &fd, NULL);
	pt_write(&e->p, sp, save, plen);
	e->stop = PS_SYSEXIT;
	if ((int64_t)fd < 0)
		diverge(e, "cannot open replay's copy of %s in the program: %s", f.path,
			strerror(-(int64_t)fd));
	a[0] = sc->ret;
	a[4] = fd;
	if (!(a[3] & MAP_FIXED))
		a[3] |= MAP_FIXED_NOREPLACE;
	eng_inject(&e->p, r, at, SYS_mmap, a, &ret, NULL);
	uint64_t ca[6] = { fd };
	eng_inject(&e->p, r, at, SYS_close, ca, &cr, NULL);
	if (ret != (uint64_t)sc->ret)
		diverge(e, "mmap of %s returned 0x%llx, the trace has 0x%llx", f.path,
			(unsigned long long)ret, (unsigned long long)sc->ret);
}

/* Detach the SysV shared memory attached at addr in the replayed
 * process (registers r at the shmdt's seccomp stop), as the kernel's
 * shmdt does: the first mapping of a segment (its emulated copy) at or
 * after addr whose offset is its distance from addr, and then those of
 * the same segment up to its size from addr at such offsets (mprotect
 * may have split one, munmap taken a piece). 0, or -1 if none. */
static int shm_detach(struct engine *e, uint64_t addr, struct user_regs_struct *r)
{
	uint64_t lo[64], hi[64], ino = 0, size = 0;
	int n = 0;
	FILE *f = maps_open(e->p.pid);
	struct maps_line m;
	while (f && n < 64 && maps_next(f, &m)) {
		if (m.lo < addr || !m.ino || strncmp(m.name, "/memfd:", 7) || m.off != m.lo - addr ||
		    m.perm[3] != 's' || (ino && (m.ino != ino || m.hi - addr > size)))
			continue;
		if (!ino) {
			char path[96];
			struct stat st;
			snprintf(path, sizeof path, "/proc/%d/map_files/%llx-%llx", e->p.pid,
				 (unsigned long long)m.lo, (unsigned long long)m.hi);
			if (stat(path, &st) < 0)
				continue;
			ino = m.ino;
			size = (st.st_size + 4095) & ~4095ull;
		}
		lo[n] = m.lo;
		hi[n++] = m.hi;
	}
	if (f)
		fclose(f);
	for (int i = 0; i < n; i++) {
		uint64_t a[6] = { lo[i], hi[i] - lo[i] }, ret;
		if (eng_inject(&e->p, r, r->rip - 2, SYS_munmap, a, &ret, NULL) < 0 || ret)
			diverge(e, "shmdt: cannot unmap 0x%llx", (unsigned long long)lo[i]);
	}
	e->stop = PS_SYSEXIT;
	return n ? 0 : -1;
}

/* Replay a successful shmat (registers r at its seccomp stop, r0 to give
 * back) or shmdt: the segment is emulated as a file mapped shared, its
 * copy mapped where the kernel attached it, and unmapped at shmdt. */
static void replay_shm(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
		       struct user_regs_struct *r0)
{
	struct trace_item fi, ei;
	struct files_ref f;
	if (sc->nr == SYS_shmdt) {
		if (shm_detach(e, sc->args[0], r) < 0)
			diverge(e, "shmdt: nothing is attached at 0x%llx",
				(unsigned long long)sc->args[0]);
	} else {
		if (!eng_find_item(&e->cur, IT_EMUFILE, 0, &ei) || !eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi) ||
		    files_ref(&fi, &f) < 0)
			eng_bad_record(e, "shmat without its segment");
		uint64_t flags = sc->args[2];
		uint64_t a[6] = { sc->ret, f.size,
				  PROT_READ | (flags & SHM_RDONLY ? 0 : PROT_WRITE) |
				  (flags & SHM_EXEC ? PROT_EXEC : 0),
				  MAP_SHARED | (flags & SHM_REMAP ? MAP_FIXED : 0), 0, 0 };
		map_emulated(e, sc, r, a, &fi, &ei);
	}
	r0->rax = sc->ret;
	pt_setregs(&e->p, r0);
}

/* The file to execve for the exec record e->cur: the trace's copy of the
 * executable (into e->exe). The kernel loads the ELF interpreter from the
 * path the executable names; when the file there is no longer the
 * recorded one but the trace holds a copy (tpack), a copy of the
 * executable is made whose PT_INTERP names a short link to it, in a
 * directory *tmp that the caller removes after the exec. */
static const char *exec_file(struct engine *e, char *tmp, size_t tmplen)
{
	static char path[4200];
	struct trace_item exe, in;
	tmp[0] = 0;
	if (!eng_find_item(&e->cur, IT_FILE, IF_EXE, &exe))
		eng_bad_record(e, "execve without its file");
	snprintf(e->exe, sizeof e->exe, "%s", eng_blob_path(e, &exe, 0));
	snprintf(path, sizeof path, "%s", e->exe);
	struct files_ref f;
	const char *why;
	char blob[4200];
	if (!eng_find_item(&e->cur, IT_FILE, IF_INTERP, &in) || files_ref(&in, &f) < 0 ||
	    files_same(f.path, &f, &why) == 0)
		return path;
	files_blob(blob, sizeof blob, e->dir, f.hash);
	char *abs = realpath(blob, NULL);	/* the link must work from /tmp */
	if (!abs || files_same(abs, &f, &why) != 0) {
		free(abs);
		return path;	/* not in the trace: finish_exec() names it */
	}
	snprintf(blob, sizeof blob, "%s", abs);
	free(abs);
	/* Read the executable, point its PT_INTERP at tmp/l, write tmp/x. */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *img = NULL;
	if (fd < 0 || fstat(fd, &st) < 0 || !(img = malloc(st.st_size ? st.st_size : 1)) ||
	    read(fd, img, st.st_size) != st.st_size)
		die(EXIT_TRACE, "%s: cannot read: %s", path, strerror(errno));
	close(fd);
	snprintf(tmp, tmplen, "/tmp/rwi-XXXXXX");
	if (!mkdtemp(tmp))
		die(EXIT_TRACE, "mkdtemp: %s", strerror(errno));
	char link[64], copy[64];
	snprintf(link, sizeof link, "%s/l", tmp);
	snprintf(copy, sizeof copy, "%s/x", tmp);
	uint64_t phoff = st.st_size >= 64 ? get64(img + 32) : 0;
	uint16_t phentsize = st.st_size >= 64 ? get16(img + 54) : 0, phnum = st.st_size >= 64 ? get16(img + 56) : 0;
	int done = 0;
	for (int i = 0; i < phnum && phentsize >= 56 && phoff + (i + 1) * (uint64_t)phentsize <= (uint64_t)st.st_size; i++) {
		const uint8_t *ph = img + phoff + i * phentsize;
		uint64_t off = get64(ph + 8), sz = get64(ph + 32);
		if (get32(ph) != 3 /* PT_INTERP */ || off + sz > (uint64_t)st.st_size || sz <= strlen(link))
			continue;
		memset(img + off, 0, sz);
		memcpy(img + off, link, strlen(link));
		done = 1;
	}
	if (!done || symlink(blob, link) < 0 || (fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500)) < 0 ||
	    write_all(fd, img, st.st_size) < 0 || close(fd) < 0)
		die(EXIT_TRACE, "%s: cannot make a copy that loads the trace's %s: %s", path, f.path,
		    done ? strerror(errno) : "no PT_INTERP long enough");
	free(img);
	snprintf(path, sizeof path, "%s", copy);
	return path;
}

/* Remove what exec_file() made, once the kernel has mapped it. */
static void exec_done(const char *tmp)
{
	char p[80];
	if (!tmp[0])
		return;
	snprintf(p, sizeof p, "%s/x", tmp);
	unlink(p);
	snprintf(p, sizeof p, "%s/l", tmp);
	unlink(p);
	rmdir(tmp);
}

/* After execve: check the interpreter the kernel mapped, then put back
 * the recorded stack and registers. moved: it came from the trace. */
static void finish_exec(struct engine *e, int moved)
{
	struct trace_item it, regs, stack;
	snprintf(cur_task(e)->exe, sizeof cur_task(e)->exe, "%s", e->exe);
	/* An exec forgets the clear-tid address and the alternate stack. */
	cur_task(e)->ctid = 0;
	cur_task(e)->alt[0] = cur_task(e)->alt[2] = 0;
	cur_task(e)->alt[1] = SS_DISABLE;
	size_t off = trace_fixed_size(TR_SYSCALL);
	while (trace_item(&e->cur, &off, &it) > 0)
		if (it.tag == IT_FILE && it.flags == IF_INTERP) {
			eng_blob_path(e, &it, 0);	/* the trace is whole */
			if (!moved)
				eng_blob_path(e, &it, 1);	/* and the kernel mapped the same bytes */
		}
	if (!eng_find_item(&e->cur, IT_REGS, -1, &regs) || !eng_find_item(&e->cur, IT_STACK, -1, &stack) ||
	    regs.len != sizeof(struct user_regs_struct) || stack.len < 8)
		eng_bad_record(e, "execve without registers and stack");
	struct user_regs_struct now, want;
	memcpy(&want, regs.p, sizeof want);
	pt_getregs(&e->p, &now);
	uint64_t sp = get64(stack.p);
	if (now.rsp < sp) {
		size_t gap = sp - now.rsp;
		uint8_t *zero = calloc(1, gap);
		if (!zero || pt_write(&e->p, now.rsp, zero, gap) < 0)
			diverge(e, "cannot clear the new stack");
		free(zero);
	}
	if (pt_write(&e->p, sp, stack.p + 8, stack.len - 8) < 0)
		diverge(e, "cannot restore the initial stack at 0x%llx (stack layout differs)",
			(unsigned long long)sp);
	pt_setregs(&e->p, &want);
	tsc_exec(&e->p, cur_task(e)->rtgid, e->exe);
}

/* The first execve: start the tracee on the trace's copy of the
 * executable, with the recorded arguments and environment, padded so that
 * its stack is at least as deep as the recorded one. */
static void spawn(struct engine *e, const struct trace_syscall *sc)
{
	struct trace_item exe, argv_it, env_it, stack;
	if (!eng_find_item(&e->cur, IT_FILE, IF_EXE, &exe) || !eng_find_item(&e->cur, IT_ARG, 1, &argv_it) ||
	    !eng_find_item(&e->cur, IT_ARG, 2, &env_it) || !eng_find_item(&e->cur, IT_STACK, -1, &stack))
		eng_bad_record(e, "first execve lacks its file, arguments or stack");
	/* Each is u64 full length, then NUL-terminated strings: the last
	 * must end in the item, or strlen below would run past it. */
	if (argv_it.len < 8 || env_it.len < 8 || (argv_it.len > 8 && argv_it.p[argv_it.len - 1]) ||
	    (env_it.len > 8 && env_it.p[env_it.len - 1]))
		eng_bad_record(e, "first execve's arguments or environment are damaged");
	if (sc->ret != 0)
		die(EXIT_TRACE, "%s: the recorded program did not start (execve failed)", e->dir);
	char tmp[64];
	char *path = strdup(exec_file(e, tmp, sizeof tmp));
	note_exec(e, path);
	char *strs[2] = { xmalloc(argv_it.len), xmalloc(env_it.len + stack.len + 64) };
	char **vec[2];
	const struct trace_item *src[2] = { &argv_it, &env_it };
	for (int v = 0; v < 2; v++) {
		size_t len = src[v]->len - 8, n = 0;
		memcpy(strs[v], src[v]->p + 8, len);
		for (size_t i = 0; i < len; i++)
			n += strs[v][i] == 0;
		vec[v] = xmalloc((n + 3) * sizeof(char *));
		size_t k = 0;
		for (size_t i = 0; i < len; i += strlen(strs[v] + i) + 1)
			vec[v][k++] = strs[v] + i;
		if (v == 1) {
			char *pad = strs[1] + len;
			size_t plen = stack.len > 120000 ? 120000 : stack.len;
			memcpy(pad, "REWIND_PAD=", 11);
			memset(pad + 11, 'x', plen);
			pad[11 + plen] = 0;
			vec[v][k++] = pad;
		}
		vec[v][k] = NULL;
	}
	pt_spawn(&e->p, path, vec[0], vec[1], NULL, tsc_arm);
	e->started = 1;
	e->ti = add_task(e, e->cur.tid, e->cur.tid, e->p.pid);
	struct user_regs_struct r;
	run_call(e, &r);
	exec_done(tmp);
	if ((int64_t)r.rax != 0)
		diverge(e, "execve of %s failed: %s", path, strerror(-(int64_t)r.rax));
	finish_exec(e, tmp[0] != 0);
	free(path);
	for (int v = 0; v < 2; v++) {
		free(strs[v]);
		free(vec[v]);
	}
}

/* The clone flags and the parent and child tid pointers of a clone-like
 * call with arguments a. */
static uint64_t clone_args(struct engine *e, long nr, const uint64_t a[6], uint64_t *ptid,
			   uint64_t *ctid)
{
	*ptid = *ctid = 0;
	if (nr == SYS_clone) {
		*ptid = a[2];
		*ctid = a[3];
		return a[0];
	}
	if (nr == SYS_clone3) {
		uint64_t ca[4] = { 0 };	/* flags, pidfd, child_tid, parent_tid */
		pt_read(&e->p, a[0], ca, sizeof ca);
		*ctid = ca[2];
		*ptid = ca[3];
		return ca[0];
	}
	return nr == SYS_vfork ? CLONE_VM | CLONE_VFORK : 0;
}

/* Perform the clone-like call the current thread is at the entry of:
 * the new thread or process joins the tasks under the recorded id sc->ret
 * (the kernel gives it another one) and waits at its first stop. The
 * parent waits at its syscall-exit stop; a vfork parent stays in the
 * kernel until its child execs or exits. */
static void clone_start(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t ptid, ctid, flags = clone_args(e, sc->nr, sc->args, &ptid, &ctid);
	int st;
	/* CLONE_UNTRACED: rec stripped it too, to keep the child recorded.
	 * Namespaces: the program's calls are answered from the trace, so
	 * replay needs none (nor the privilege to make them), and in a new
	 * pid namespace the signals replay raises would come from nowhere. */
	const uint64_t strip = CLONE_UNTRACED | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
			       CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP;
	if (sc->nr == SYS_clone && (flags & strip)) {
		struct user_regs_struct r;
		pt_getregs(&e->p, &r);
		r.rdi &= ~strip;
		pt_setregs(&e->p, &r);
	}
	uint64_t f3 = flags & ~(strip | 0x80);	/* 0x80: CLONE_NEWTIME, clone3 only */
	int put_back = sc->nr == SYS_clone3 && f3 != flags && pt_write(&e->p, sc->args[0], &f3, 8) == 0;
	e->how = RESUME_SYSCALL;
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	int k = wait_stop(e, &st);
	int ev = st >> 16;
	if (k != PS_OTHER || (ev != PTRACE_EVENT_CLONE && ev != PTRACE_EVENT_FORK &&
			      ev != PTRACE_EVENT_VFORK))
		diverge(e, "expected a new thread or process, got %s", describe_stop(e, k, st));
	unsigned long child = 0;
	ptrace(PTRACE_GETEVENTMSG, e->p.pid, 0, &child);
	int cst;
	while (waitpid(child, &cst, __WALL) < 0 && errno == EINTR)
		;
	if (!WIFSTOPPED(cst))
		diverge(e, "the new thread %lu did not start", child);
	if (put_back) {	/* the flags as the program wrote them, in both copies */
		struct pt_proc cp = { .pid = child, .memfd = -1 };
		pt_write(&e->p, sc->args[0], &flags, 8);
		pt_write(&cp, sc->args[0], &flags, 8);
	}
	struct eng_task *me = cur_task(e);
	uint32_t rtid = sc->ret, rtgid = flags & CLONE_THREAD ? me->rtgid : rtid;
	uint32_t seen = sc->ret, self = sc->ret;
	struct trace_item it;
	if (eng_find_item(&e->cur, IT_TASK, -1, &it) && it.len >= 8) {
		/* The records' id of the thread, and in a pid namespace the
		 * ones its parent and itself see. (An entry record has only
		 * the records' id.) */
		rtid = get32(it.p);
		rtgid = get32(it.p + 4);
		if (it.len >= 12)
			self = get32(it.p + 8);
	}
	int ci = add_task(e, rtid, rtgid, child);
	/* What the kernel gave it that a checkpoint must give it again. */
	e->tasks[ci].ctid = flags & CLONE_CHILD_CLEARTID ? ctid : 0;
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM)
		memcpy(e->tasks[ci].alt, cur_task(e)->alt, sizeof cur_task(e)->alt);
	if (!(flags & CLONE_THREAD))
		tsc_fork(cur_task(e)->rtgid, rtid);
	memcpy(e->tasks[ci].exe, cur_task(e)->exe, sizeof e->tasks[ci].exe);
	pt_reopen_mem(&e->tasks[ci].p);
	/* The kernel wrote this run's thread id where the program asked;
	 * the program saw the recorded one. */
	if (flags & CLONE_PARENT_SETTID)
		pt_write(&e->p, ptid, &seen, 4);
	if (flags & CLONE_CHILD_SETTID)
		pt_write(&e->tasks[ci].p, ctid, &self, 4);
	if (flags & CLONE_VFORK)
		pt_getregs(&e->p, &cur_task(e)->kregs);
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	cur_task(e)->state = ET_KERNEL;
	e->stop = PS_OTHER;
	if (flags & CLONE_VFORK)
		return;
	/* Any other parent comes to its syscall-exit stop at once: wait for
	 * it now, not at the call's end. Other threads may run before that
	 * end, and meanwhile a debugger reads this thread's registers
	 * (gdbstub's reverse-step did, and found it still running: ESRCH).
	 * Those show the recorded result, not this run's thread id. */
	k = wait_stop(e, &st);
	if (k != PS_SYSEXIT)
		diverge(e, "expected the end of %s, got %s", sysname(sc->nr), describe_stop(e, k, st));
	e->stop = PS_SYSEXIT;
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	r.rax = sc->ret;
	pt_setregs(&e->p, &r);
}

/* The end of a clone-like call: its syscall-exit stop (reached in
 * clone_start(), but by a vfork parent only once its child has execed or
 * exited), where the program sees the recorded id. */
static void clone_finish(struct engine *e, const struct trace_syscall *sc,
			 struct user_regs_struct *r)
{
	int st;
	if (e->stop != PS_SYSEXIT) {	/* a vfork parent: waited for here */
		int k = wait_stop(e, &st);
		if (k != PS_SYSEXIT)
			diverge(e, "expected the end of %s, got %s", sysname(sc->nr), describe_stop(e, k, st));
		e->stop = PS_SYSEXIT;
	}
	cur_task(e)->state = ET_STOPPED;
	pt_getregs(&e->p, r);
	r->rax = sc->ret;
	pt_setregs(&e->p, r);
	apply_mem(e, &e->cur);	/* the recorded pidfd of CLONE_PIDFD */
}

/* The entry of the current thread's syscall e->cur, which its stop k
 * begins: it must be the recorded call with the recorded arguments. */
static const struct sys_entry *sys_enter(struct engine *e, int k, struct trace_syscall *sc)
{
	if (trace_syscall(&e->cur, sc) < 0)
		eng_bad_record(e, "short syscall record");
	const struct sys_entry *s = sys_row(sc->nr);
	if (!e->started) {
		/* Before the first execve there is no thread to run a call
		 * whose end comes later. */
		if (s->class != C_EXECVE || (e->cur.flags & TRF_ENTRY))
			eng_bad_record(e, "the trace does not start with execve");
		return s;
	}
	char want[64];
	snprintf(want, sizeof want, "syscall %s", sysname(sc->nr));
	expect(e, k, PS_SECCOMP, want);
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	if ((int32_t)r.orig_rax != sc->nr) {
		const char *got = sysname((int32_t)r.orig_rax);
		diverge(e, "expected syscall %s, got syscall %s", want + 8, got);
	}
	uint64_t a[6];
	pt_args(&r, a);
	moved.ev = e->cur.event;
	moved.n = 0;
	for (int i = 0; i < s->nargs; i++) {
		if (a[i] == sc->args[i])
			continue;
		/* A pointer whose data the trace holds may point elsewhere:
		 * the inputs are compared below, the outputs written there.
		 * Not across an entry and a later end (TRF_ENTRY). */
		if (a[i] && sc->args[i] && !(e->cur.flags & TRF_ENTRY) &&
		    data_recorded(sys_kind(s->arg[i]))) {
			moved.from[moved.n] = sc->args[i];
			moved.to[moved.n++] = a[i];
			sc->args[i] = a[i];
			continue;
		}
		diverge(e, "%s: argument %d is 0x%llx, the trace has 0x%llx", s->name, i + 1,
			(unsigned long long)a[i], (unsigned long long)sc->args[i]);
	}
	struct argcheck ac = { e, &e->cur, trace_fixed_size(TR_SYSCALL), s };
	cap_inputs(&e->p, s, a, check_arg, &ac);
	return s;
}

/* The signal mask a call of quirk Q_SIGMASK installs while it waits
 * (ppoll, pselect6, epoll_pwait, epoll_pwait2), or 0. */
static uint64_t call_mask(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t ss = 0;
	switch (sc->nr) {
	case SYS_ppoll:
		return sc->args[3];
	case SYS_epoll_pwait:
	case SYS_epoll_pwait2:
		return sc->args[4];
	case SYS_pselect6:	/* a pointer to { sigset_t *ss; size_t len } */
		if (sc->args[5] && pt_read(&e->p, sc->args[5], &ss, 8) != 8)
			ss = 0;
		return ss;
	}
	return 0;
}

/* A call with a signal mask was interrupted by a signal its mask let in:
 * rt_sigsuspend with that mask, the recorded signal made pending, does
 * the kernel's mask juggling (the handler runs under the call's mask, the
 * old one comes back after it). Then the thread looks as the call left
 * it (r), with its result. Returns 0, having done nothing, when no
 * signal of the thread comes next. */
static int suspend_in(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
		      uint64_t mask)
{
	int sig = eng_next_signal_of(e, e->cur.tid);
	if (!sig)
		return 0;	/* none came: nothing to let in */
	syscall(SYS_tkill, e->p.pid, sig);
	e->raised = 1;
	struct user_regs_struct w = *r;
	w.orig_rax = SYS_rt_sigsuspend;
	w.rdi = mask;
	w.rsi = 8;
	pt_setregs(&e->p, &w);
	run_call(e, &w);
	r->orig_rax = sc->nr;
	r->rax = sc->ret;
	pt_setregs(&e->p, r);
	return 1;
}

/* The current thread (not the first of its process) was resumed to end
 * (exit): wait until it has ended, as rec did, since the kernel clears
 * its id for a join (CLONE_CHILD_CLEARTID) as it goes, and no other
 * thread may look before. Its end is left to be reaped at its
 * TR_TASKEXIT (WNOWAIT); a stop on the way out is passed. */
static void reap_exit(struct engine *e)
{
	for (;;) {
		siginfo_t si = { 0 };
		if (waitid(P_PID, e->p.pid, &si, WEXITED | WSTOPPED | WNOWAIT | __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			return;
		int st;
		if (waitpid(e->p.pid, &st, __WALL) < 0)
			return;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			/* Reaped after all (it ended in between): its
			 * TR_TASKEXIT checks the status. */
			cur_task(e)->status = st;
			cur_task(e)->doomed = 2;
			return;
		}
		pt_resume(&e->p, RESUME_CONT, 0);	/* no stop is replayed there */
	}
}

/* Whether call sc sets the calling process's RLIMIT_STACK, RLIMIT_DATA
 * or RLIMIT_AS, which shape its address space. */
static int space_limit(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t res = sc->nr == SYS_setrlimit ? sc->args[0] : sc->args[1];
	if (res != RLIMIT_STACK && res != RLIMIT_DATA && res != RLIMIT_AS)
		return 0;
	return sc->nr == SYS_setrlimit ||
	       (sc->nr == SYS_prlimit64 && sc->args[2] &&
		(sc->args[0] == 0 || sc->args[0] == cur_task(e)->rtgid));
}

/* A call being finished: its row and record, the class it is replayed
 * as, its registers (r as given to the kernel, r0 as the program passed
 * them) and its arguments (a, as in r). */
struct call {
	const struct sys_entry *s;
	const struct trace_syscall *sc;
	int cls;
	int noerr;		/* a negative result is no failure */
	uint64_t mask;		/* the signal mask it waits under, or 0 */
	struct user_regs_struct r, r0;
	uint64_t a[6];
};

/* The points of sys_finish() at which it asks the quirk function of an
 * irregular call (column "quirk" of sys_table.h). */
enum {
	QP_CLASS,	/* before anything: may change c->cls (or c->noerr) */
	QP_PERFORM,	/* about to be performed, not answered: may change
			   the arguments; returns 1 when it did the call itself */
	QP_DONE,	/* performed, its result checked */
	QP_ANSWER,	/* answered as interrupted: may set c->mask */
};

/* Q_PRCTL: its own filter, as seccomp(), or syscall user dispatch
 * (PR_SET_SYSCALL_USER_DISPATCH): the SIGSYS they raise must come again.
 * PR_SET_MM's fields of the address space (brk, the stack's and
 * arguments' bounds, auxv) too: replay's is laid out the same. */
static int q_prctl(struct engine *e, struct call *c, int phase)
{
	const uint64_t *a = c->sc->args;
	(void)e;
	if (phase == QP_CLASS && ((a[0] == PR_SET_SECCOMP && a[1] == 2) || a[0] == 59 ||
				  (a[0] == PR_SET_MM && a[1] >= 1 && a[1] <= 12)))
		c->cls = C_EXEC;
	return 0;
}

/* Q_SECCOMP: strict mode: rec kept it, and answered. */
static int q_seccomp(struct engine *e, struct call *c, int phase)
{
	(void)e;
	if (phase == QP_CLASS && c->sc->args[0] == 0)
		c->cls = C_EMU;
	return 0;
}

/* Q_RLIMIT: the stack's limit lays out the mappings of the next exec and
 * bounds the stack's growth, the data limit bounds brk (performed, and
 * checked): replay's must be the same. For the process itself (pid 0 at
 * replay). */
static int q_rlimit(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_CLASS || !space_limit(e, c->sc))
		return 0;
	c->cls = C_EXEC;
	if (c->sc->nr == SYS_prlimit64) {
		c->a[0] = 0;
		pt_set_args(&c->r, c->a);
		pt_setregs(&e->p, &c->r);
	}
	return 0;
}

/* Q_PEERPID: process_vm_writev writes into a process of the tree (rec
 * made sure): the one replaying it, at the same point of its run. The
 * program gets its own registers back. */
static int q_peerpid(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_PERFORM && c->cls == C_EXEC) {
		struct eng_task *t = eng_task_of(e, (uint32_t)c->a[0]);
		if (!t || t->state == ET_GONE)
			diverge(e, "process_vm_writev: process %u is not running", (unsigned)c->a[0]);
		c->a[0] = t->p.pid;
		pt_set_args(&c->r, c->a);
		pt_setregs(&e->p, &c->r);
	} else if (phase == QP_DONE) {
		c->r0.rax = c->r.rax;
		pt_setregs(&e->p, &c->r0);
	}
	return 0;
}

/* Q_SHM: shmat and shmdt (replay_shm()). */
static int q_shm(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_PERFORM)
		return 0;
	replay_shm(e, c->sc, &c->r, &c->r0);
	return 1;
}

/* Q_SIGRET: rt_sigreturn "returns" the interrupted rax, which may look
 * like an error. */
static int q_sigret(struct engine *e, struct call *c, int phase)
{
	(void)e;
	if (phase == QP_CLASS)
		c->noerr = 1;
	return 0;
}

/* Q_ALTSTACK: sigaltstack's new stack, for checkpoints. */
static int q_altstack(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_DONE && c->sc->args[0])
		note_altstack(e, c->sc->args[0]);
	return 0;
}

/* Q_SIGMASK: the mask that lets the interrupting signal in. */
static int q_sigmask(struct engine *e, struct call *c, int phase)
{
	if (phase == QP_ANSWER)
		c->mask = call_mask(e, c->sc);
	return 0;
}

/* Q_TIDADDR: set_tid_address, performed for the word the kernel clears
 * when the thread ends (another thread may wait for it); it returns the
 * thread's id, the recorded one. Checkpoints give the address again. */
static int q_tidaddr(struct engine *e, struct call *c, int phase)
{
	if (phase != QP_PERFORM)
		return 0;
	run_call(e, &c->r);
	cur_task(e)->ctid = c->sc->args[0];
	c->r0.rax = c->sc->ret;
	pt_setregs(&e->p, &c->r0);
	return 1;
}

/* Q_MREMAP: a growing mremap of a range that was one mapping in the
 * recording may be several in replay: a file's private neighbours map
 * replay's copy through a new open each, which the kernel does not merge.
 * Then the pieces after the first are moved (or the last grown) by
 * injected calls, and the call is made on the first piece alone. */
static int q_mremap(struct engine *e, struct call *c, int phase)
{
	const uint64_t *a = c->sc->args;
	uint64_t lo[16], hi[16], dst = c->sc->ret, r;
	int n = 0;
	if (phase != QP_PERFORM || a[2] <= a[1] || (a[3] & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED)))
		return 0;
	FILE *f = maps_open(e->p.pid);
	struct maps_line m;
	while (f && maps_next(f, &m) && m.lo < a[0] + a[1])
		if (m.hi > a[0] && n < 16) {
			lo[n] = m.lo > a[0] ? m.lo : a[0];
			hi[n++] = m.hi < a[0] + a[1] ? m.hi : a[0] + a[1];
		}
	if (f)
		fclose(f);
	if (n < 2 || lo[0] != a[0] || hi[n - 1] != a[0] + a[1])
		return 0;	/* one mapping, or a hole: the kernel says */
	uint64_t at = c->r.rip - 2, grow = a[2] - a[1];
	for (int i = n - 1; i >= 0; i--) {
		uint64_t len = hi[i] - lo[i], nl = len + (i == n - 1 ? grow : 0);
		uint64_t ma[6] = { lo[i], len, nl, 0, 0 };
		if (dst != a[0]) {	/* moved: each piece to its place there */
			ma[3] = MREMAP_MAYMOVE | MREMAP_FIXED;
			ma[4] = dst + (lo[i] - a[0]);
		} else if (nl == len)
			continue;	/* grown in place: only the last grows */
		if (eng_inject(&e->p, &c->r, at, SYS_mremap, ma, &r, NULL) < 0 ||
		    r != (ma[3] ? ma[4] : lo[i]))
			diverge(e, "mremap: cannot move piece 0x%llx-0x%llx of the range (0x%llx)",
				(unsigned long long)lo[i], (unsigned long long)hi[i],
				(unsigned long long)r);
	}
	e->stop = PS_SYSEXIT;
	apply_mem(e, &e->cur);	/* file pages it refilled */
	tsc_syscall(&e->p, cur_task(e)->rtgid, c->sc->nr, a, c->sc->ret, NULL);
	c->r0.rax = c->sc->ret;
	pt_setregs(&e->p, &c->r0);
	return 1;
}

static int (*const quirks[])(struct engine *, struct call *, int) = {
	[Q_PRCTL] = q_prctl,
	[Q_SECCOMP] = q_seccomp,
	[Q_RLIMIT] = q_rlimit,
	[Q_PEERPID] = q_peerpid,
	[Q_SHM] = q_shm,
	[Q_SIGRET] = q_sigret,
	[Q_ALTSTACK] = q_altstack,
	[Q_SIGMASK] = q_sigmask,
	[Q_TIDADDR] = q_tidaddr,
	[Q_MREMAP] = q_mremap,
};

/* Ask call c's quirk function, if it has one, at phase. */
static int quirk(struct engine *e, struct call *c, int phase)
{
	return c->s->quirk ? quirks[c->s->quirk](e, c, phase) : 0;
}

/* An exit or exit_group (C_EXIT). */
static void finish_exit(struct engine *e, const struct trace_syscall *sc)
{
	/* The marks its end makes through robust lists, maybe in memory
	 * other processes share (rec's exit_robust_marks). */
	apply_mem(e, &e->cur);
	/* With other threads about, it must go now: they wait for its end
	 * (a join), or die with it (exit_group). */
	if (eng_live(e) <= 1)
		return;
	e->how = RESUME_CONT;
	pt_resume(&e->p, RESUME_CONT, 0);
	cur_task(e)->state = ET_EXITING;
	/* After exit_group the kernel has sent SIGKILL to the other threads
	 * of its process, so none of them runs user code again: one that is
	 * resumed to end (a thread that never ran, say) dies at once instead
	 * of making a syscall the recording never saw. */
	if (sc->nr == SYS_exit_group)
		pt_wait_zombie(e->p.pid);
	else if (cur_task(e)->rtid != cur_task(e)->rtgid)
		reap_exit(e);
}

/* Answer call c from the trace (C_EMU, and a clone not performed). */
static void answer(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	apply_mem(e, &e->cur);
	c->r.orig_rax = -1;
	c->r.rax = sc->ret;
	pt_setregs(&e->p, &c->r);
	if (cap_is_restart(sc->ret) || sc->ret == -EINTR) {
		quirk(e, c, QP_ANSWER);
		if (c->mask && suspend_in(e, sc, &c->r, c->mask))
			return;
	}
	if (!cap_is_restart(sc->ret))
		return;
	/* The kernel restarts a call only if orig_rax is the call, so run
	 * the skipped call to its exit and put the number back there. */
	run_call(e, &c->r);
	c->r.orig_rax = sc->nr;
	c->r.rax = sc->ret;
	if (!eng_next_signal_of(e, e->cur.tid)) {
		/* Interrupted by a signal the program never saw (rec's own
		 * SIGSTOP, come as it blocked): the kernel restarted the call
		 * at once, as it does when no handler runs. No signal is
		 * pending here to make it do so: restart it. */
		c->r.rip -= 2;
		c->r.rax = sc->ret == -516 /* ERESTART_RESTARTBLOCK */ ? SYS_restart_syscall : sc->nr;
	}
	pt_setregs(&e->p, &c->r);
}

/* rt_sigsuspend (C_SUSPEND): make the recorded signal pending, then let
 * the kernel do the mask juggling of a real rt_sigsuspend. */
static void suspend(struct engine *e, struct call *c)
{
	int sig = eng_next_signal_of(e, e->cur.tid);
	if (sig) {
		syscall(SYS_tkill, e->p.pid, sig);
		e->raised = 1;
	}
	run_call(e, &c->r);
	if ((int64_t)c->r.rax != c->sc->ret)
		diverge(e, "rt_sigsuspend returned %lld, the trace has %lld", (long long)c->r.rax,
			(long long)c->sc->ret);
}

/* An mmap (C_MMAP): a file mapped shared is performed on replay's copy
 * of the file, and then 1 is returned; else the arguments are made those
 * of the mapping to perform at the recorded address, and 0 returned. */
static int mmap_args(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	uint64_t *a = c->a;
	struct trace_item fi, ei;
	if (eng_find_item(&e->cur, IT_EMUFILE, 0, &ei) && eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi)) {
		map_emulated(e, sc, &c->r, a, &fi, &ei);
		apply_mem(e, &e->cur);
		c->r0.rax = sc->ret;
		pt_setregs(&e->p, &c->r0);
		return 1;
	}
	if (!(sc->args[3] & MAP_ANONYMOUS)) {
		/* A private copy of the file's bytes from the trace (a shared
		 * mapping is emulated, above; traces from before IT_EMUFILE
		 * get an anonymous one, shared with the processes forked after
		 * it when writable). */
		uint64_t how = (a[3] & MAP_SHARED_VALIDATE) != MAP_PRIVATE && (a[2] & PROT_WRITE)
				       ? MAP_SHARED : MAP_PRIVATE;
		a[3] = (a[3] & ~(uint64_t)(MAP_SHARED | MAP_SHARED_VALIDATE | MAP_PRIVATE)) | how |
		       MAP_ANONYMOUS;
		a[4] = -1;
		a[5] = 0;
	}
	a[0] = sc->ret;
	if (!(a[3] & MAP_FIXED))
		a[3] |= MAP_FIXED_NOREPLACE;
	pt_set_args(&c->r, a);
	pt_setregs(&e->p, &c->r);
	return 0;
}

/* An execve or execveat (C_EXECVE), performed on the trace's copy of the
 * executable, its path placed on the stack. */
static void perform_exec(struct engine *e, struct call *c)
{
	char tmp[64];
	const char *path = exec_file(e, tmp, sizeof tmp);
	note_exec(e, path);
	uint64_t at = (c->r.rsp - 8192 - strlen(path)) & ~15ull;
	if (pt_write(&e->p, at, path, strlen(path) + 1) < 0)
		diverge(e, "cannot place the executable's path on the stack");
	if (c->sc->nr != SYS_execve) {	/* execveat(dirfd, path, argv, envp, flags) */
		c->a[1] = c->a[2];
		c->a[2] = c->a[3];
		c->r.orig_rax = SYS_execve;
	}
	c->a[0] = at;
	pt_set_args(&c->r, c->a);
	pt_setregs(&e->p, &c->r);
	run_call(e, &c->r);
	exec_done(tmp);
	if ((int64_t)c->r.rax != 0)
		diverge(e, "execve of %s failed: %s", path, strerror(-(int64_t)c->r.rax));
	finish_exec(e, tmp[0] != 0);
}

/* Perform call c: run it, check the result, give back the registers the
 * program passed (we may have changed the arguments). */
static void perform(struct engine *e, struct call *c)
{
	const struct trace_syscall *sc = c->sc;
	run_call(e, &c->r);
	if ((int64_t)c->r.rax != sc->ret)
		diverge(e, "%s returned 0x%llx, the trace has 0x%llx", c->s->name,
			(unsigned long long)c->r.rax, (unsigned long long)sc->ret);
	quirk(e, c, QP_DONE);
	apply_mem(e, &e->cur);	/* file pages a madvise or mremap refilled */
	struct trace_item it;
	int mapped = c->cls == C_MMAP && eng_find_item(&e->cur, IT_FILE, IF_MAP, &it);
	if (c->cls == C_MMAP) {
		c->r0.rax = c->r.rax;
		pt_setregs(&e->p, &c->r0);
		if (mapped)
			fill_map(e, sc->ret, sc->args[1], &it);
	}
	tsc_syscall(&e->p, cur_task(e)->rtgid, sc->nr, sc->args, sc->ret,
		    mapped ? eng_blob_path(e, &it, 0) : NULL);
}

/* Give the current thread, at the entry of the call e->cur (whole, or
 * merged from its entry and end), the call's result: as its class says,
 * with its quirk function (sys_table.h) asked on the way. */
static void sys_finish(struct engine *e, const struct sys_entry *s, const struct trace_syscall *sc)
{
	if (!e->started) {
		spawn(e, sc);
		return;
	}
	struct call c = { .s = s, .sc = sc, .cls = s->class };
	if (s->class == C_CLONE && cur_task(e)->state == ET_KERNEL) {
		clone_finish(e, sc, &c.r);	/* a vfork parent, running until now */
		return;
	}
	if (e->perform && s->class != C_EMU)
		e->perform(e->hook_arg);
	pt_getregs(&e->p, &c.r);
	c.r0 = c.r;
	pt_args(&c.r, c.a);
	quirk(e, &c, QP_CLASS);
	if (c.cls == C_EXIT) {
		finish_exit(e, sc);
		return;
	}
	if (e->cur.flags & TRF_NORETURN) {
		/* The program died inside the call: only SIGKILL does that
		 * without a signal stop (kill(getpid(), SIGKILL)). Robust
		 * mutexes first (rec's kill_robust_marks). */
		apply_mem(e, &e->cur);
		kill(e->p.pid, SIGKILL);
		return;
	}
	if (c.cls == C_CLONE && sc->ret > 0) {
		clone_start(e, sc);
		clone_finish(e, sc, &c.r);
		return;
	}
	/* A failed call changed nothing: answer it. */
	if (c.cls != C_EMU && sc->ret < 0 && !cap_is_restart(sc->ret) && !c.noerr)
		c.cls = C_EMU;
	if (c.cls != C_EMU && quirk(e, &c, QP_PERFORM))
		return;
	switch (c.cls) {
	case C_CLONE:	/* failed, or a checkpoint's clone */
	case C_EMU:
		answer(e, &c);
		return;
	case C_SUSPEND:
		suspend(e, &c);
		return;
	case C_EXECVE:
		perform_exec(e, &c);
		return;
	case C_MMAP:
		if (mmap_args(e, &c))
			return;
		break;
	}
	perform(e, &c);
}

static void replay_syscall(struct engine *e, int k)
{
	struct trace_syscall sc;
	const struct sys_entry *s = sys_enter(e, k, &sc);
	if (!(e->cur.flags & TRF_ENTRY)) {
		sys_finish(e, s, &sc);
		return;
	}
	/* Only the entry: other threads run before the call ends. A new
	 * thread must exist for them; everything else waits for the end. */
	struct eng_task *t = cur_task(e);
	if (t->entrycap < e->cur.size) {
		t->entrycap = e->cur.size;
		t->entry = xrealloc(t->entry, t->entrycap);
	}
	memcpy(t->entry, e->cur.p, e->cur.size);
	t->entrylen = e->cur.size;
	t->state = ET_INCALL;
	/* What the kernel wrote before the call blocked (the FUTEX_WAITERS
	 * mark of a FUTEX_LOCK_PI), which other threads see meanwhile. */
	apply_mem(e, &e->cur);
	if (s->class == C_CLONE)
		clone_start(e, &sc);
}

/* The end of the current thread's call whose entry came earlier: the
 * entry and this record make the whole call in e->cur. */
static void replay_sysret(struct engine *e)
{
	struct eng_task *t = cur_task(e);
	size_t fixed = trace_fixed_size(TR_SYSRET);
	if (e->cur.size < fixed)
		eng_bad_record(e, "short syscall end record");
	if ((t->state != ET_INCALL && t->state != ET_KERNEL) || t->entrylen < trace_fixed_size(TR_SYSCALL) ||
	    get32(t->entry) != get32(e->cur.p))
		diverge(e, "the end of a syscall that thread %u did not begin", t->rtid);
	size_t n = t->entrylen + e->cur.size - fixed;
	uint8_t *p = xmalloc(n);
	memcpy(p, t->entry, t->entrylen);
	memcpy(p + 56, e->cur.p + 8, 8);	/* ret */
	memcpy(p + t->entrylen, e->cur.p + fixed, e->cur.size - fixed);
	free(e->curbuf);
	e->curbuf = p;
	e->curcap = n;
	e->cur.kind = TR_SYSCALL;
	e->cur.flags = 0;
	e->cur.size = n;
	e->cur.p = p;
	struct trace_syscall sc;
	trace_syscall(&e->cur, &sc);
	if (t->state == ET_INCALL)
		t->state = ET_STOPPED;
	sys_finish(e, sys_row(sc.nr), &sc);
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
		if (t->status != want)
			diverge(e, "expected thread %u to end with status 0x%x, got 0x%x", t->rtid, want,
				t->status);
		e->status = t->status;
		return ENG_EVENT;
	}
	if (!final && t->state != ET_GONE && sibling_execs(e, t)) {
		/* Killed by that execve, which replay performs at its end:
		 * the thread dies there. */
		t->doomed = 1;
		t->want = want;
		return ENG_EVENT;
	}
	if (t->state != ET_GONE) {
		if (WIFSIGNALED(want) && WTERMSIG(want) == SIGKILL)
			kill(e->p.pid, SIGKILL);
		if (t->state == ET_STOPPED)	/* with the fatal signal, if any */
			pt_resume(&e->p, RESUME_CONT, e->pending_sig);
		e->pending_sig = 0;
		while (waitpid(e->p.pid, &st, __WALL) < 0)
			if (errno != EINTR)
				diverge(e, "thread %u is gone: %s", t->rtid, strerror(errno));
		if (!WIFEXITED(st) && !WIFSIGNALED(st))
			diverge(e, "expected thread %u to end, got %s", t->rtid,
				describe_stop(e, pt_classify(st), st));
		t->state = ET_GONE;
	}
	/* The futex words its end marked through its robust list, in the
	 * memory of its live siblings (written through one of them). */
	for (int i = 0; i < e->ntasks; i++)
		if (i != e->ti && e->tasks[i].rtgid == t->rtgid && e->tasks[i].state != ET_GONE) {
			struct pt_proc me = e->p;
			e->p = e->tasks[i].p;
			apply_mem(e, &e->cur);
			e->p = me;
			break;
		}
	e->status = st;
	if (st != want)
		diverge(e, "expected thread %u to end with status 0x%x, got 0x%x", t->rtid, want, st);
	if (final)
		e->done = 1;
	return final ? ENG_EXIT : ENG_EVENT;
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
	int k = wait_stop(e, &st);
	e->how = how;
	if (k != PS_SIGNAL || WSTOPSIG(st) != SIGTRAP)
		diverge(e, "thread %u: expected the handler of signal %d to start, got %s",
			cur_task(e)->rtid, sig, describe_stop(e, k, st));
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
	while ((k = trace_item(rec, &off, &it)) > 0)
		if (it.tag == IT_BLOCK && it.len >= 8)
			pos_store_add(&store, get64(it.p), it.p + 8, it.len - 8);
		else if (it.tag == IT_XBLOCK && it.len >= 16 && xblock(&it) < 0)
			rc = -1;
	return rc;
}

/* A replay that started from a checkpoint has not read the blocks of the
 * preemptions before it, which later ones name: read them all, once. */
static void keep_blocks_before(struct engine *e)
{
	struct trace_reader r;
	struct trace_rec rec;
	store_whole = 1;
	if (trace_open(&r, e->dir) < 0)
		return;
	while (trace_next(&r, &rec) > 0 && rec.event < e->cur.event)
		if (rec.kind == TR_PREEMPT)
			keep_blocks(&rec);
	trace_close(&r);
}

/* Keep the blocks of TR_PREEMPT rec (the current record or the next),
 * reading those of the records before when one is made from a base not
 * read yet (a replay started from a checkpoint). */
static void have_blocks(struct engine *e, const struct trace_rec *rec)
{
	if (keep_blocks(rec) < 0) {
		if (!store_whole)
			keep_blocks_before(e);
		if (keep_blocks(rec) < 0)
			eng_bad_record(e, "a memory block whose base is not in the trace, or of another hash");
	}
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
	have_blocks(e, &e->cur);
	struct pos_block *b = xmalloc(hashes.len + 1);
	memcpy(b, hashes.p, hashes.len);
	char why[256];
	int rc = pos_apply(&e->p, b, hashes.len / 24, &store, why, sizeof why);
	if (rc < 0 && !store_whole) {
		keep_blocks_before(e);
		rc = pos_apply(&e->p, b, hashes.len / 24, &store, why, sizeof why);
	}
	if (rc < 0)
		diverge(e, "thread %u: %s", cur_task(e)->rtid, why);
	free(b);
	struct user_regs_struct r;
	memcpy(&r, regs.p, sizeof r);
	/* A state taken right after a call (a tracer in the program
	 * poked its tracee there) is set where replay answered that call,
	 * at its entry: the kernel must not run it again. */
	if (e->stop == PS_SECCOMP)
		r.orig_rax = -1;
	pt_setregs(&e->p, &r);
	if (pt_setxstate(&e->p, xs.p, xs.len) < 0)
		diverge(e, "thread %u: cannot set its FP/vector state: %s", cur_task(e)->rtid,
			strerror(errno));
}

static void replay_signal(struct engine *e, int k)
{
	int sig = get32(e->cur.p), flags = get32(e->cur.p + 4);
	char want[64];
	snprintf(want, sizeof want, "signal %d", sig);
	e->raised = 0;
	expect(e, k, PS_SIGNAL, want);
	if (WSTOPSIG(e->status) != sig)
		diverge(e, "expected signal %d, got signal %d", sig, WSTOPSIG(e->status));
	if (flags & TRS_ASYNC)
		ptrace(PTRACE_SETSIGINFO, e->p.pid, 0, e->cur.p + 8);
	apply_mem(e, &e->cur);	/* robust mutexes of a process it ends */
	e->pending_sig = sig;
}

static void replay_rdtsc(struct engine *e, int k)
{
	const uint8_t *p = e->cur.p;
	if (e->cur.size < trace_fixed_size(TR_RDTSC))
		eng_bad_record(e, "short rdtsc record");
	uint64_t rip = get64(p), tsc = get64(p + 8);
	expect(e, k, PS_SIGNAL, "rdtsc");
	struct user_regs_struct r;
	siginfo_t si = { 0 };
	pt_getregs(&e->p, &r);
	ptrace(PTRACE_GETSIGINFO, e->p.pid, 0, &si);
	if (tsc_stopped(&e->p, cur_task(e)->rtgid, &si, r.rip) != (get32(p + 20) ? 2 : 1) ||
	    r.rip != rip)
		diverge(e, "expected rdtsc at 0x%llx, got signal %d at 0x%llx",
			(unsigned long long)rip, WSTOPSIG(e->status), (unsigned long long)r.rip);
	r.rax = (uint32_t)tsc;
	r.rdx = tsc >> 32;
	if (get32(p + 20))
		r.rcx = get32(p + 16);
	r.rip += get32(p + 20) ? 3 : 2;
	pt_setregs(&e->p, &r);
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
	if (!e->started && e->cur.kind >= TR_START && e->cur.kind <= TR_PREEMPT &&
	    e->cur.kind != TR_SYSCALL)
		eng_bad_record(e, "an event before the program started");
	switch (e->cur.kind) {
	case TR_SYSCALL:
		replay_syscall(e, k);
		break;
	case TR_SIGNAL:
		replay_signal(e, k);
		break;
	case TR_RDTSC:
		replay_rdtsc(e, k);
		break;
	case TR_EXIT:
	case TR_TASKEXIT:
		if (e->cur.size < 8)
			eng_bad_record(e, "short exit record");
		if (k < 0 || e->ntasks > 1)
			return replay_task_exit(e, e->cur.kind == TR_EXIT);
		int want = (int)get32(e->cur.p);
		expect(e, k, PS_EXITED, "the program's exit");
		if (e->status != want)
			diverge(e, "expected exit status 0x%x, got 0x%x", want, e->status);
		return ENG_EXIT;
	case TR_SYSRET:
		replay_sysret(e);
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

/* The next event nx is a preemption that the current thread re-executes
 * up to (e->reexec), stopped now: whether it is at the recorded place
 * again, or the search gave up; its state is then set either way. */
static int rematch_here(struct engine *e, const struct trace_rec *nx)
{
	pid_t tids[64];
	int n = 0;
	for (int i = 0; i < e->ntasks && n < 64; i++)
		if (e->tasks[i].rtgid == cur_task(e)->rtgid && e->tasks[i].state != ET_GONE)
			tids[n++] = i == e->ti ? e->p.pid : e->tasks[i].p.pid;
	have_blocks(e, nx);	/* the bytes of its changed blocks */
	int m = rematch_check(&e->p, nx, &e->rm, &store, tids, n);
	e->preempt_how = m > 0 ? RM_FOUND : RM_GAVEUP;
	return m;
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
	e->how = step ? RESUME_STEP : RESUME_CONT;
	if (!step && !e->debug)
		bufplay_load(e);
	pt_resume(&e->p, e->how, e->pending_sig);
	e->pending_sig = 0;
	for (;;) {
		*k = wait_stop(e, st);
		e->stop = *k == PS_INTR ? PS_SIGNAL : *k;
		bufplay_sync(e);
		if (*k == PS_INTR)
			return ENG_INTR;
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
		if (rerun) {
			struct user_regs_struct r;
			pt_getregs(&e->p, &r);
			rematch_stopped(&e->rm, rerun, &e->trap, &r);
		}
		return ENG_TRAP;
	}
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
		switch_task(e, i);
	}
	/* Killed from outside (kill -9) between two calls: it died somewhere
	 * in code that makes no call, which replay cannot find again without
	 * counting; nothing of that stretch reaches the trace or the outside
	 * (its output goes through calls), so it is killed where it stands,
	 * after its last recorded call, instead of running on for ever. */
	int killed = (kind == TR_EXIT || kind == TR_TASKEXIT) && nx->size >= 4 &&
		     WIFSIGNALED(get32(nx->p)) && WTERMSIG(get32(nx->p)) == SIGKILL;
	int rerun = kind == TR_PREEMPT && eng_rematch_rip(e);
	if (rerun) {
		if (rematch_here(e, nx)) {	/* there again, or given up: its state is set */
			eng_load_next(e);
			return dispatch(e, -1);
		}
	} else if (kind == TR_PREEMPT) {
		e->preempt_how = RM_SET;
	}
	if (!e->started || (kind != TR_SYSCALL && kind != TR_SIGNAL && kind != TR_RDTSC &&
			    (kind != TR_EXIT || e->ntasks > 1 || killed) && !rerun)) {
		eng_load_next(e);
		return dispatch(e, -1);	/* the first execve, or a kind without a stop */
	}
	if (cur_task(e)->state != ET_STOPPED) {
		eng_load_next(e);
		diverge(e, "thread %u is inside a syscall", cur_task(e)->rtid);
	}
	int trapsig = 0;
	if (kind == TR_SIGNAL) {
		if (nx->size < trace_fixed_size(TR_SIGNAL))
			eng_bad_record(e, "short signal record");
		trapsig = get32(nx->p) == SIGTRAP;
		if ((get32(nx->p + 4) & TRS_ASYNC) && !e->raised) {
			syscall(SYS_tkill, e->p.pid, get32(nx->p));
			e->raised = 1;
		}
	}
	int st, k, end = run_to_stop(e, step, trapsig, rerun ? nx : NULL, &k, &st);
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
		diverge(e, "thread %u stopped (%s) on its way to the place it was preempted at",
			cur_task(e)->rtid, describe_stop(e, k, st));
	}
	eng_load_next(e);
	return dispatch(e, k);
}

uint64_t eng_rematch_rip(struct engine *e)
{
	if (!e->reexec || !e->debug || !e->started || e->done)
		return 0;
	const struct trace_rec *nx = eng_peek_next(e, 1);
	if (!nx || nx->kind != TR_PREEMPT || !rematch_ran(nx))
		return 0;
	int i = find_task(e, nx->tid);
	if (i < 0 || e->tasks[i].rtgid != e->reexec || e->tasks[i].state != ET_STOPPED)
		return 0;
	return rematch_rip(nx);
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
	if (k->state == ET_KERNEL && (cur ? e->stop : k->stop) != PS_SYSEXIT) {
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

void eng_ready(struct engine *e)
{
	const struct trace_rec *nx = eng_peek(e);
	if (!e->started || !nx || nx->kind == TR_START)
		return;
	int i = find_task(e, nx->tid);
	if (i >= 0)
		switch_task(e, i);
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
	e->ntasks = 0;
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
