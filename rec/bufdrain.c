/* bufdrain.c: rec's side of syscall buffering (see bufdrain.h and
 * lib/bufabi.h): finds and preloads librewind-buf.so, tells it which
 * descriptors cannot block, and turns the calls it logged into records
 * (and, for tests, forces a preemption inside it: REWIND_BUF_PREEMPT). */
#include "bufdrain.h"
#include "bufredir.h"
#include "bufabi.h"
#include "cap.h"
#include "emu.h"
#include "maps.h"
#include "outs.h"
#include "probe.h"
#include "sys.h"
#include "trace.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <unistd.h>

#define LIBNAME "librewind-buf.so"
#define ENT_REC_INPUTS 1	/* as in buf/rwbuf.c */

int buf_on;

/* The library next to rec, or in ../lib/rewind from it (make install). */
static int find_lib(char *path, size_t len)
{
	char self[PATH_MAX - 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	*slash = 0;
	if (snprintf(path, len, "%.*s/%s", (int)(len - 64), self, LIBNAME) >= (int)len)
		return -1;
	if (access(path, R_OK) == 0)
		return 0;
	snprintf(path, len, "%.*s/../lib/rewind/%s", (int)(len - 64), self, LIBNAME);
	char real[PATH_MAX];
	if (access(path, R_OK) == 0 && realpath(path, real)) {
		snprintf(path, len, "%s", real);
		return 0;
	}
	return -1;
}

/* Buffering is on unless REWIND_NO_BUFFER says otherwise. */
static int wanted(void)
{
	return !env_flag("REWIND_NO_BUFFER");
}

void buf_probe_print(FILE *f)
{
	char lib[PATH_MAX];
	if (find_lib(lib, sizeof lib) < 0)
		fprintf(f, "syscall buffering: missing: no %s next to rec or in ../lib/rewind: "
			   "every syscall is a ptrace stop\n", LIBNAME);
	else if (!wanted())
		fprintf(f, "syscall buffering: switched off (REWIND_NO_BUFFER): every syscall is a "
			   "ptrace stop\n");
	else
		fprintf(f, "syscall buffering: present: %s makes the common calls without a stop\n", lib);
}

/* REWIND_BUF_PREEMPT: the offset (bp_off, with bp_want), then the
 * breakpoint's thread and address while it is armed. */
static int bp_want;
static uint64_t bp_off, bp_addr;
static pid_t bp_tid;

/* Read REWIND_BUF_PREEMPT, before the program starts: the probe forks
 * (and the program's stops are rec's to wait for once it runs). */
static void want_preempt(void)
{
	const char *s = getenv("REWIND_BUF_PREEMPT");
	if (!s || !*s)
		return;
	char *end;
	bp_off = strtoull(s, &end, 0);
	if (*end)
		die(EXIT_USAGE, "REWIND_BUF_PREEMPT: not an offset: %s", s);
	if (!probe_has(PROBE_DEBUGREGS))
		die(EXIT_USAGE, "REWIND_BUF_PREEMPT: no debug registers here (see rec --probe)");
	bp_want = 1;
}

/* Arm REWIND_BUF_PREEMPT in p, whose library has just set its page up:
 * an execution breakpoint in debug register 0 at the library's load
 * address plus the offset. Once per recording. */
static void arm_preempt(struct pt_proc *p)
{
	if (!bp_want)
		return;
	bp_want = 0;
	FILE *f = maps_open(p->pid);
	struct maps_line m;
	uint64_t base = 0;
	size_t nl = strlen(LIBNAME), n;
	while (f && !base && maps_next(f, &m))
		if (m.off == 0 && (n = strlen(m.name)) > nl && m.name[n - nl - 1] == '/' &&
		    !strcmp(m.name + n - nl, LIBNAME))
			base = m.lo;
	if (f)
		fclose(f);
	if (!base || pt_set_dr(p->pid, 0, base + bp_off) < 0 || pt_set_dr(p->pid, 7, 1) < 0)
		die(EXIT_TRACE, "REWIND_BUF_PREEMPT: cannot set a breakpoint in thread %d: %s", p->pid,
		    base ? strerror(errno) : "no " LIBNAME " mapped");
	bp_tid = p->pid;
	bp_addr = base + bp_off;
}

int buf_preempt_hit(struct pt_proc *p, const siginfo_t *si, uint64_t rip)
{
	if (!bp_tid || p->pid != bp_tid || si->si_signo != SIGTRAP || si->si_code != TRAP_HWBKPT ||
	    rip != bp_addr)
		return 0;
	bp_tid = 0;
	pt_set_dr(p->pid, 7, 0);
	return 1;
}

char **buf_setup(char **envp)
{
	static char lib[PATH_MAX];
	if (!wanted() || find_lib(lib, sizeof lib) < 0)
		return envp;
	int n = 0, at = -1;
	while (envp[n]) {
		if (!strncmp(envp[n], "LD_PRELOAD=", 11))
			at = n;
		n++;
	}
	char **env = xmalloc((n + 2) * sizeof *env);
	memcpy(env, envp, (n + 1) * sizeof *env);
	const char *old = at >= 0 ? envp[at] + 11 : "";
	char *v = xmalloc(strlen(lib) + strlen(old) + 16);
	sprintf(v, "LD_PRELOAD=%s%s%s", lib, *old ? ":" : "", old);
	if (at >= 0)
		env[at] = v;
	else {
		env[n] = v;
		env[n + 1] = NULL;
	}
	pt_untraced_ip = BUF_UNTRACED_IP;
	pt_untraced_queries = 1;
	buf_on = 1;
	want_preempt();
	return env;
}

/* The header of p's process, if it has a live buffer. Read with
 * process_vm_readv alone: the header's page is always readable where the
 * library made it. A process without it (before its loader mapped the
 * library, or one that never loads it) is not asked again until its
 * library readies a buffer (buf_after(), whose caller clears p->nobuf of
 * each thread of the process): only rec turns a header's mode on.
 * get_hdr_and reads the first len bytes of the log into head with it,
 * in one read: most stops that find entries find few. */
static int get_hdr_and(struct pt_proc *p, struct buf_hdr *h, uint8_t *head, size_t len)
{
	struct iovec l[2] = { { h, sizeof *h }, { head, len } },
		     r[2] = { { (void *)BUF_HDR, sizeof *h }, { (void *)BUF_DATA, len } };
	if (!buf_on || p->nobuf)
		return -1;
	ssize_t n = process_vm_readv(p->pid, l, len ? 2 : 1, r, len ? 2 : 1, 0);
	if (n == (ssize_t)(sizeof *h + len) && h->magic == BUF_MAGIC && h->mode == 1)
		return 0;
	if (len && n >= 0 && n < (ssize_t)(sizeof *h + len))
		return get_hdr_and(p, h, NULL, 0);	/* the header alone says */
	if ((n < 0 && errno == EFAULT) || n == (ssize_t)(sizeof *h + len))
		p->nobuf = 1;	/* not a thread that is gone (ESRCH) */
	return -1;
}

static int get_hdr(struct pt_proc *p, struct buf_hdr *h)
{
	return get_hdr_and(p, h, NULL, 0);
}

/* Write the header fields [from, to) of h: only rec's own, while
 * another thread of the process may be running and logging. Returns -1
 * when the thread is being killed (from outside: kill -9). */
static int put_hdr(struct pt_proc *p, const struct buf_hdr *h, size_t from, size_t to)
{
	if (pt_write(p, BUF_HDR + from, (const uint8_t *)h + from, to - from) == 0)
		return 0;
	int e = errno;
	if (pt_dying(p->pid))
		return -1;
	die(EXIT_TRACE, "cannot write the syscall buffer of thread %d: %s", p->pid, strerror(e));
}

/* rec's settings: mode and the fd sets. */
static void put_settings(struct pt_proc *p, const struct buf_hdr *h)
{
	put_hdr(p, h, offsetof(struct buf_hdr, mode), offsetof(struct buf_hdr, mode) + 4);
	put_hdr(p, h, offsetof(struct buf_hdr, fd_read), sizeof *h);
}

int buf_busy(struct pt_proc *p)
{
	struct buf_hdr h;
	struct user_regs_struct r;
	return get_hdr(p, &h) == 0 &&
	       (h.busy || (h.lib_sp && pt_getregs_alive(p, &r) == 0 && r.rsp < h.lib_sp));
}

/* The lib_sp in the header of p's process into *sp: 0, or -1 when the
 * process has no library. */
static int read_lib_sp(struct pt_proc *p, uint64_t *sp)
{
	struct iovec l = { sp, 8 }, r = { (void *)(BUF_HDR + offsetof(struct buf_hdr, lib_sp)), 8 };
	return buf_on && process_vm_readv(p->pid, &l, 1, &r, 1, 0) == 8 ? 0 : -1;
}

uint64_t buf_lib_sp(struct pt_proc *p)
{
	uint64_t sp = 0;
	return read_lib_sp(p, &sp) == 0 ? sp : 0;
}

int buf_swap_lib_sp(struct pt_proc *p, uint64_t *sp)
{
	uint64_t now = 0;
	if (read_lib_sp(p, &now) < 0)
		return -1;	/* no library in this process */
	if (now != *sp) {
		struct iovec l = { sp, 8 }, r = { (void *)(BUF_HDR + offsetof(struct buf_hdr, lib_sp)), 8 };
		process_vm_writev(p->pid, &l, 1, &r, 1, 0);
	}
	*sp = now;
	return 0;
}

void buf_want_traced(struct pt_proc *p)
{
	uint32_t one = 1;
	struct buf_hdr h;
	if (get_hdr(p, &h) == 0)
		pt_write(p, BUF_HDR + offsetof(struct buf_hdr, traced_next), &one, 4);
}

void buf_poke(pid_t tid)
{
	static uint32_t one = 1;
	if (!buf_on || !tid)
		return;
	/* A process without the buffer has nothing mapped there: EFAULT. */
	struct iovec l = { &one, 4 }, r = { (void *)(BUF_HDR + offsetof(struct buf_hdr, traced_next)), 4 };
	uint32_t magic = 0;
	struct iovec ml = { &magic, 4 }, mr = { (void *)BUF_HDR, 4 };
	int saved = errno;	/* a signal handler's calls leave errno alone */
	if (process_vm_readv(tid, &ml, 1, &mr, 1, 0) == 4 && magic == BUF_MAGIC)
		process_vm_writev(tid, &l, 1, &r, 1, 0);
	errno = saved;
}

/* Growing scratch for a rebuilt payload. */
struct pbuf {
	uint8_t *b;
	size_t len, cap;
};

static void pb_put(struct pbuf *pb, const void *p, size_t n)
{
	if (pb->len + n > pb->cap) {
		pb->cap = (pb->len + n) * 2;
		pb->b = xrealloc(pb->b, pb->cap);
	}
	memcpy(pb->b + pb->len, p, n);
	pb->len += n;
}

static void pb_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len)
{
	struct pbuf *pb = ctx;
	uint16_t t[2] = { IT_ARG, (uint16_t)arg };
	uint32_t l = 8 + len;
	pb_put(pb, t, 4);
	pb_put(pb, &l, 4);
	pb_put(pb, &full, 8);
	pb_put(pb, data, len);
}

_Static_assert(BUF_LOG_HDR == TRACE_REC_HDR, "a log entry's header is a record's");

/* The log's entry at off of the n bytes at log: its payload's size, or
 * 0 when it does not fit or is no call rec knows. */
static uint32_t log_entry(const uint8_t *log, size_t off, size_t n)
{
	uint32_t size;
	uint16_t nr;
	if (off + BUF_LOG_HDR + 64 > n)
		return 0;
	memcpy(&size, log + off, 4);
	memcpy(&nr, log + off + BUF_LOG_HDR, 2);
	return size >= 64 && size <= n - off - BUF_LOG_HDR && sys_lookup(nr) ? size : 0;
}

/* A log holding an entry whose inputs rec is to read (ENT_REC_INPUTS,
 * rare): each record made again, with them, from a copy of it. */
static void drain_rebuilt(struct pt_proc *p, struct trace_writer *w, uint64_t *event,
			  const uint8_t *log, size_t n)
{
	static uint8_t *data;
	static size_t cap;
	static struct pbuf pb;
	if (n > cap) {
		cap = n;
		data = xrealloc(data, cap);
	}
	memcpy(data, log, n);
	for (size_t off = 0; off < n;) {
		uint32_t size = log_entry(data, off, n);
		uint8_t *pl = data + off + BUF_LOG_HDR;
		uint16_t nr, flags;
		memcpy(&nr, pl, 2);
		memcpy(&flags, pl + 2, 2);
		memset(pl + 2, 0, 2);
		tw_begin(w, TR_SYSCALL, TRF_BUFFERED, (*event)++, p->pid);
		if (flags & ENT_REC_INPUTS) {
			/* Only the program's own code ran since: its mappings
			 * are as they were at the call. */
			uint64_t a[6];
			memcpy(a, pl + 8, sizeof a);
			pb.len = 0;
			pb_put(&pb, pl, 64);
			cap_inputs(p, sys_lookup(nr), a, pb_arg, &pb);
			pb_put(&pb, pl + 64, size - 64);
			tw_put(w, pb.b, pb.len);
		} else {
			tw_put(w, pl, size);
		}
		tw_end(w);
		off += BUF_LOG_HDR + size;
	}
}

void buf_drain(struct pt_proc *p, int held, struct trace_writer *w, uint64_t *event,
	       void (*before)(void))
{
	struct buf_hdr h;
	static uint8_t head[1024];
	if (get_hdr_and(p, &h, head, sizeof head) < 0 || h.busy)
		return;
	if (h.used > BUF_DATA_SIZE)
		die(EXIT_TRACE, "thread %d: corrupt syscall buffer (%llu bytes used)", p->pid,
		    (unsigned long long)h.used);
	/* Read into the chunk being built, each entry's header made a
	 * TR_SYSCALL record's in place. */
	if (h.used)
		before();
	uint8_t *log = h.used ? tw_raw_begin(w, h.used) : NULL;
	if (h.used && h.used <= sizeof head)
		memcpy(log, head, h.used);
	else if (h.used && pt_read(p, BUF_DATA, log, h.used) != (ssize_t)h.used) {
		if (pt_dying(p->pid))
			return;		/* its calls since its last stop are lost */
		die(EXIT_TRACE, "cannot read the syscall buffer of thread %d", p->pid);
	}
	uint32_t nrec = 0;
	int rebuild = 0;
	for (size_t off = 0; off < h.used; nrec++) {
		uint32_t size = log_entry(log, off, h.used);
		if (!size)
			die(EXIT_TRACE, "thread %d: corrupt syscall buffer entry at %zu", p->pid, off);
		uint16_t flags;
		memcpy(&flags, log + off + BUF_LOG_HDR + 2, 2);
		rebuild |= flags & ENT_REC_INPUTS;
		off += BUF_LOG_HDR + size;
	}
	if (rebuild) {
		drain_rebuilt(p, w, event, log, h.used);
	} else {
		for (size_t off = 0, i = 0; off < h.used; i++) {
			uint8_t *r = log + off;
			uint32_t size;
			memcpy(&size, r, 4);
			uint16_t hd[2] = { TR_SYSCALL, TRF_BUFFERED };
			uint32_t rsize = BUF_LOG_HDR + size, tid[2] = { (uint32_t)p->pid, 0 };
			uint64_t ev = *event + i;
			memcpy(r, hd, 4);
			memcpy(r + 4, &rsize, 4);
			memcpy(r + 8, &ev, 8);
			memcpy(r + 16, tid, 8);
			memset(r + BUF_LOG_HDR + 2, 0, 2);
			off += rsize;
		}
		tw_raw_end(w, h.used, nrec, *event);
		*event += nrec;
	}
	/* The thread is stopped and no other of its process runs. Most
	 * stops find nothing logged and nothing to change: no write. */
	int empty = !h.used && !h.count;
	if (empty && h.traced_next == (uint32_t)(held > 0))
		return;
	h.used = 0;
	h.count = 0;
	h.traced_next = held > 0;
	if (put_hdr(p, &h, offsetof(struct buf_hdr, traced_next), offsetof(struct buf_hdr, traced_next) + 4) == 0 &&
	    !empty)
		put_hdr(p, &h, offsetof(struct buf_hdr, count), offsetof(struct buf_hdr, used) + 8);
}

/* A file of procfs: a write to one may do anything (/proc/PID/mem
 * writes memory, see memfile.h), so it goes traced. */
static int proc_file(const char *path, const struct stat *st)
{
	struct statfs sf;
	return S_ISREG(st->st_mode) && st->st_size == 0 && statfs(path, &sf) == 0 &&
	       sf.f_type == PROC_SUPER_MAGIC;
}

/* Whether reads (and writes, *w) of the file at fd of p can neither block
 * nor, for writes, reach rec's stdout or stderr (replay re-emits those);
 * *c: whether closing it cannot block. */
static int fd_safe(struct pt_proc *p, int fd, int *w, int *c)
{
	char path[64];
	struct stat st;
	*w = *c = 0;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", p->pid, fd);
	if (stat(path, &st) < 0)
		return 0;
	int chr = S_ISCHR(st.st_mode) && major(st.st_rdev) == 1;
	unsigned mi = minor(st.st_rdev);
	*c = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || chr;
	/* Not /dev/urandom: its long reads come back short now and then
	 * when untraced (a pending-signal check between pages). */
	if (!S_ISREG(st.st_mode) && !(chr && (mi == 3 || mi == 5 || mi == 7)))
		return 0;
	/* A write to an emulated file is recorded as a patch of it (emu.c),
	 * and one to rec's stdout or stderr as output replay prints again
	 * (even on /dev/null): only traced calls get those. */
	*w = !(S_ISREG(st.st_mode) && emu_is(st.st_dev, st.st_ino)) && !outs_kind_st(p->pid, fd, &st) &&
	     !proc_file(path, &st);
	return 1;
}

static void set_bit(uint8_t *set, long fd, int v)
{
	set[fd / 8] = (set[fd / 8] & ~(1 << fd % 8)) | v << fd % 8;
}

static void set_fd(struct buf_hdr *h, struct pt_proc *p, long fd)
{
	if (fd < 0 || fd >= BUF_NFD)
		return;
	int w, c, r = fd_safe(p, fd, &w, &c);
	set_bit(h->fd_read, fd, r);
	set_bit(h->fd_write, fd, w);
	set_bit(h->fd_close, fd, c);
}

static void scan_fds(struct buf_hdr *h, struct pt_proc *p)
{
	char path[64];
	memset(h->fd_read, 0, sizeof h->fd_read);
	memset(h->fd_write, 0, sizeof h->fd_write);
	memset(h->fd_close, 0, sizeof h->fd_close);
	snprintf(path, sizeof path, "/proc/%d/fd", p->pid);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			set_fd(h, p, atol(de->d_name));
	if (d)
		closedir(d);
}

/* How many threads the process of thread tid has (its status's
 * Threads line), or 0 if that cannot be read. */
static int threads(pid_t tid)
{
	char path[64], line[128];
	int n = 0;
	snprintf(path, sizeof path, "/proc/%d/status", tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

void buf_rescan(struct pt_proc *p)
{
	struct buf_hdr h;
	if (get_hdr(p, &h) < 0)
		return;
	scan_fds(&h, p);
	put_settings(p, &h);
}

/* Set by buf_stop(): libraries that register later stay off too. */
static int stopped;

void buf_stop(struct pt_proc *p)
{
	struct buf_hdr h;
	stopped = 1;
	if (get_hdr(p, &h) < 0)
		return;
	h.mode = 0;
	put_settings(p, &h);
}

void buf_after(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret)
{
	struct buf_hdr h;
	int ready = buf_readies(nr, a, ret);
	if (ready)
		buf_redirect(p, key);	/* as the replay engine does at this call */
	if (!buf_on)
		return;
	if (ready) {
		/* The library's page is ready: buffering starts. */
		if (pt_read(p, BUF_HDR, &h, sizeof h) != sizeof h || h.magic != BUF_MAGIC)
			return;
		scan_fds(&h, p);
		h.mode = !stopped;
		put_settings(p, &h);
		arm_preempt(p);
		return;
	}
	if (ret < 0)
		return;
	switch (nr) {
	case SYS_open: case SYS_openat: case SYS_openat2: case SYS_creat:
	case SYS_dup: case SYS_dup2: case SYS_dup3: case SYS_close: case SYS_close_range:
	case SYS_fcntl: case SYS_seccomp: case SYS_prctl:
	case SYS_clone: case SYS_clone3: case SYS_fork: case SYS_vfork: case SYS_unshare:
		break;
	default:
		return;
	}
	if (get_hdr(p, &h) < 0)
		return;
	switch (nr) {
	case SYS_fcntl:
		if (a[1] != F_DUPFD && a[1] != F_DUPFD_CLOEXEC)
			return;
		/* fall through */
	case SYS_open: case SYS_openat: case SYS_openat2: case SYS_creat: case SYS_dup:
	case SYS_dup2: case SYS_dup3:
		set_fd(&h, p, ret);
		break;
	case SYS_close:
		set_fd(&h, p, a[0]);
		break;
	case SYS_close_range:
	case SYS_unshare:
		if (nr == SYS_unshare && !(a[0] & CLONE_FILES))
			return;
		/* With CLOSE_RANGE_UNSHARE or CLONE_FILES the thread got a
		 * table of its own: the process's other threads, behind the
		 * same buffer, keep the old one. */
		if ((nr == SYS_unshare || (a[2] & CLOSE_RANGE_UNSHARE)) && threads(p->pid) != 1)
			h.mode = 0;
		else
			scan_fds(&h, p);
		break;
	case SYS_fork:
		return;
	case SYS_vfork: case SYS_clone: case SYS_clone3: {
		uint64_t flags = nr == SYS_vfork ? CLONE_VM | CLONE_VFORK : a[0];
		if (nr == SYS_clone3 && pt_read(p, a[0], &flags, 8) != 8)
			flags = CLONE_VM;
		if (!(flags & CLONE_VM) && (flags & CLONE_FILES)) {
			/* Two buffers behind one descriptor table: each
			 * would miss the other's closes. Both stop. */
			uint32_t zero = 0;
			struct iovec l = { &zero, 4 },
				     r = { (void *)(BUF_HDR + offsetof(struct buf_hdr, mode)), 4 };
			process_vm_writev(ret, &l, 1, &r, 1, 0);
			h.mode = 0;
			break;
		}
		if (!(flags & CLONE_VM) || (flags & CLONE_FILES))
			return;
		/* A vfork child shares the buffer but not the descriptors:
		 * the parent looks again once it runs. Two tables behind one
		 * buffer, both running, cannot be described. */
		if (flags & CLONE_VFORK)
			scan_fds(&h, p);
		else
			h.mode = 0;
		break;
	}
	case SYS_seccomp:
	case SYS_prctl:
		/* The program's own filter would see the untraced calls. */
		if (nr == SYS_prctl && (uint32_t)a[0] != PR_SET_SECCOMP)
			return;
		h.mode = 0;
		break;
	}
	put_settings(p, &h);
}
