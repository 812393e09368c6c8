/* rec: runs a program under ptrace and a seccomp filter and writes every
 * source of nondeterminism it meets into a trace directory (see
 * rec(1) and rewind-trace(5)). */
#include "cap.h"
#include "cpu.h"
#include "pt.h"
#include "sys.h"
#include "trace.h"
#include "util.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

extern char **environ;

#define NFD 1024

static struct {
	struct pt_proc p;
	struct trace_writer w;
	char dir[4096];
	uint64_t event;
	uint8_t fdk[NFD];	/* 1 or 2 if the fd is rec's stdout or stderr */
	siginfo_t stash[64];	/* async signals held for the next syscall */
	int nstash;
	int injected;		/* signal number raised at the last exit stop */
	int at_exit;		/* the last stop was a syscall exit */
	struct user_regs_struct exit_regs;
	struct { dev_t dev; ino_t ino; off_t size; struct timespec mtime; uint64_t hash; } fcache[256];
	int nfcache;
	struct shared { dev_t dev; ino_t ino; uint64_t addr, len; } *shared;	/* MAP_SHARED files */
	int nshared;
} R;

static volatile sig_atomic_t flush_due, term_sig;

static void on_alarm(int sig)
{
	(void)sig;
	flush_due = 1;
}

/* SIGTERM or SIGHUP: keep what was recorded, then go as told. */
static void on_term(int sig)
{
	term_sig = sig;
}

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: rec [-o DIR] [--] PROG [ARGS...]\n");
	exit(status);
}

static void flush_or_die(void)
{
	if (tw_flush(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
}

/* Stop recording: keep what was recorded (a record still being built is
 * left out, so the trace ends before it), end the program, say why. */
static void __attribute__((noreturn, format(printf, 2, 3))) stop_recording(int status,
									     const char *fmt, ...)
{
	char msg[4600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	flush_or_die();
	pt_kill(&R.p);
	die(status, "%s", msg);
}

/* PROG as a shell finds it. */
static const char *find_prog(const char *prog)
{
	static char buf[4096];
	if (strchr(prog, '/'))
		return prog;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');
		int n = end - path;
		snprintf(buf, sizeof buf, "%.*s%s%s", n, path, n ? "/" : "", prog);
		struct stat st;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return buf;
		path = *end ? end + 1 : end;
	}
	return NULL;
}

static void mkdir_p(const char *dir)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", dir);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(buf, 0700);
		*s = '/';
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		die(EXIT_TRACE, "%s: %s", dir, strerror(errno));
}

/* Make the trace directory: DIR from -o, else the next free NAME-N under
 * trace_home() with latest-trace pointing at it. */
static void make_dir(const char *opt, const char *prog)
{
	if (opt) {
		if (mkdir(opt, 0700) < 0)
			die(EXIT_TRACE, "%s: %s", opt, strerror(errno));
		snprintf(R.dir, sizeof R.dir, "%s", opt);
	} else {
		const char *home = trace_home();
		const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
		mkdir_p(home);
		for (int n = 0;; n++) {
			snprintf(R.dir, sizeof R.dir, "%s/%s-%d", home, base, n);
			if (mkdir(R.dir, 0700) == 0)
				break;
			if (errno != EEXIST)
				die(EXIT_TRACE, "%s: %s", R.dir, strerror(errno));
		}
		char link[4200], tmp[4200];
		snprintf(link, sizeof link, "%s/latest-trace", home);
		snprintf(tmp, sizeof tmp, "%s/.latest-trace.%d", home, getpid());
		unlink(tmp);
		if (symlink(strrchr(R.dir, '/') + 1, tmp) < 0 || rename(tmp, link) < 0)
			warnx_("%s: %s", link, strerror(errno));
	}
	char files[4200];
	snprintf(files, sizeof files, "%s/files", R.dir);
	if (mkdir(files, 0700) < 0)
		die(EXIT_TRACE, "%s: %s", files, strerror(errno));
	if (trace_create(&R.w, R.dir) < 0)
		die(EXIT_TRACE, "%s/events: %s", R.dir, strerror(errno));
	struct cpu_info cpu;
	cpu_read(&cpu);
	if (cpu_save(R.dir, &cpu) < 0)
		die(EXIT_TRACE, "%s/cpu: %s", R.dir, strerror(errno));
}

static int copy_file(const char *src, const char *dst)
{
	char buf[1 << 16];
	int in = open(src, O_RDONLY | O_CLOEXEC), outfd;
	if (in < 0)
		return -1;
	outfd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0500);
	if (outfd < 0) {
		close(in);
		return -1;
	}
	ssize_t n;
	int rc = 0;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write_all(outfd, buf, n) < 0) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	close(in);
	if (close(outfd) < 0)
		rc = -1;
	return rc;
}

/* Whether the program has fd open for writing: then it may change the
 * file behind a hard link, which must not change the trace. */
static int fd_writable(int fd)
{
	char path[64], line[256];
	unsigned flags = 0;
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", R.p.pid, fd);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "flags: %o", &flags) == 1)
			break;
	if (f)
		fclose(f);
	return (flags & O_ACCMODE) != O_RDONLY;
}

/* Put the file open at src (a /proc path that reaches it even if deleted)
 * into files/ as cheaply as the file allows, and add an IT_FILE item for
 * it. A file reachable by its path is hardlinked into files/, or, when
 * that fails (another filesystem, EPERM), recorded by path, size and
 * hash only: tpack copies those in later. A file the program can write
 * to, or that its path no longer reaches (deleted, replaced), is copied
 * now: its bytes will not be found again. */
static void store_file(const char *src, const char *path, int flags, uint64_t off, int writable)
{
	struct stat st;
	if (stat(src, &st) < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	uint64_t hash = 0, size = st.st_size;
	int i;
	for (i = 0; i < R.nfcache; i++)
		if (R.fcache[i].dev == st.st_dev && R.fcache[i].ino == st.st_ino &&
		    R.fcache[i].size == st.st_size &&
		    R.fcache[i].mtime.tv_sec == st.st_mtim.tv_sec &&
		    R.fcache[i].mtime.tv_nsec == st.st_mtim.tv_nsec)
			break;
	if (i < R.nfcache) {
		hash = R.fcache[i].hash;
	} else {
		if (hash_file(src, &hash, &size) < 0)
			die(EXIT_TRACE, "%s: %s", path, strerror(errno));
		char blob[4200];
		snprintf(blob, sizeof blob, "%s/files/%016llx", R.dir, (unsigned long long)hash);
		struct stat bs, ps;
		int reachable = st.st_nlink > 0 && stat(path, &ps) == 0 && ps.st_dev == st.st_dev &&
				ps.st_ino == st.st_ino;
		if (lstat(blob, &bs) < 0) {
			int copy = writable || !reachable;
			if (!copy && link(path, blob) == 0 &&
			    (lstat(blob, &bs) < 0 || bs.st_ino != st.st_ino || bs.st_dev != st.st_dev)) {
				unlink(blob);	/* path was replaced meanwhile */
				copy = 1;
			}
			if (copy && copy_file(src, blob) < 0)
				die(EXIT_TRACE, "%s: copying %s: %s", blob, path, strerror(errno));
		}
		if (R.nfcache < 256) {
			R.fcache[R.nfcache].dev = st.st_dev;
			R.fcache[R.nfcache].ino = st.st_ino;
			R.fcache[R.nfcache].size = st.st_size;
			R.fcache[R.nfcache].mtime = st.st_mtim;
			R.fcache[R.nfcache].hash = hash;
			R.nfcache++;
		}
	}
	uint64_t hdr[4] = { size, (uint64_t)st.st_mtim.tv_sec * 1000000000ull + st.st_mtim.tv_nsec,
			    hash, off };
	tw_item(&R.w, IT_FILE, flags, hdr, sizeof hdr, path, strlen(path));
}

static void item_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len)
{
	(void)ctx;
	tw_item(&R.w, IT_ARG, arg, &full, 8, data, len);
}

static void item_mem(void *ctx, uint64_t addr, const void *data, size_t len)
{
	(void)ctx;
	tw_item(&R.w, IT_MEM, 0, &addr, 8, data, len);
}

static void begin(int kind, int flags)
{
	tw_begin(&R.w, kind, flags, R.event++, R.p.pid);
}

/* After a successful execve: the new executable and interpreter, the
 * registers, and the initial stack (with the vDSO hidden from libc, so
 * that clocks go through syscalls we can record). */
static void record_exec(struct user_regs_struct *regs)
{
	char src[64], path[4096];
	pt_reopen_mem(&R.p);
	snprintf(src, sizeof src, "/proc/%d/exe", R.p.pid);
	ssize_t n = readlink(src, path, sizeof path - 1);
	if (n < 0)
		die(EXIT_TRACE, "%s: %s", src, strerror(errno));
	path[n] = 0;
	store_file(src, path, IF_EXE, 0, 0);

	char mpath[64], line[4500];
	uint64_t stack_top = 0;
	int have_interp = 0;
	snprintf(mpath, sizeof mpath, "/proc/%d/maps", R.p.pid);
	FILE *f = fopen(mpath, "re");
	if (!f)
		die(EXIT_TRACE, "%s: %s", mpath, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		int pos = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &pos) < 2 || !pos)
			continue;
		char *name = line + pos;
		name[strcspn(name, "\n")] = 0;
		if (!strcmp(name, "[stack]"))
			stack_top = hi;
		else if (name[0] == '/' && strcmp(name, path) && !have_interp) {
			char fsrc[128];
			snprintf(fsrc, sizeof fsrc, "/proc/%d/map_files/%lx-%lx", R.p.pid, lo, hi);
			store_file(fsrc, name, IF_INTERP, 0, 0);
			have_interp = 1;
		}
	}
	fclose(f);
	if (!stack_top)
		die(EXIT_TRACE, "%s: no [stack] mapping", mpath);

	/* Hide AT_SYSINFO_EHDR: walk argc, argv, envp to the auxv. */
	uint64_t sp = regs->rsp, argc, v;
	pt_read(&R.p, sp, &argc, 8);
	uint64_t a = sp + 8 * (argc + 2);
	while (pt_read(&R.p, a, &v, 8) == 8 && v)
		a += 8;
	for (a += 8;; a += 16) {
		uint64_t av[2];
		if (pt_read(&R.p, a, av, 16) != 16 || av[0] == AT_NULL)
			break;
		if (av[0] == AT_SYSINFO_EHDR) {
			uint64_t ign = AT_IGNORE;
			pt_write(&R.p, a, &ign, 8);
		}
	}
	size_t len = stack_top - sp;
	uint8_t *stack = xmalloc(len);
	if (pt_read(&R.p, sp, stack, len) != (ssize_t)len)
		die(EXIT_TRACE, "cannot read the initial stack");
	tw_item(&R.w, IT_REGS, 0, regs, sizeof *regs, NULL, 0);
	tw_item(&R.w, IT_STACK, 0, &sp, 8, stack, len);
	free(stack);
}

/* Save tracee memory [from, to) as an IT_MEM item of the current record. */
static void save_mem(uint64_t from, uint64_t to)
{
	uint8_t *buf = xmalloc(to - from);
	ssize_t n = pt_read(&R.p, from, buf, to - from);
	if (n > 0)
		tw_item(&R.w, IT_MEM, 0, &from, 8, buf, n);
	free(buf);
}

/* madvise(MADV_DONTNEED) and a growing mremap refill private file
 * mappings from the file. Replay's copies of those mappings are
 * anonymous, so save what the pages hold now as kernel output. */
static void file_pages(uint64_t lo, uint64_t hi)
{
	char path[64], line[4500];
	snprintf(path, sizeof path, "/proc/%d/maps", R.p.pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f)) {
		unsigned long a, b, ino;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &a, &b, perm, &ino) != 4 || !ino ||
		    perm[3] != 'p' || b <= lo || a >= hi)
			continue;
		save_mem(a > lo ? a : lo, b < hi ? b : hi);
	}
	if (f)
		fclose(f);
}

/* A write to a file the program also maps MAP_SHARED changes the mapping
 * behind replay's back (its copy is anonymous): save the mappings of that
 * file as the call's output. */
static void shared_pages(long nr, const uint64_t a[6], int64_t ret)
{
	int fd = nr == SYS_copy_file_range ? 2 : 0;
	if (!R.nshared || ret < 0 ||
	    (nr != SYS_write && nr != SYS_pwrite64 && nr != SYS_writev && nr != SYS_pwritev &&
	     nr != SYS_pwritev2 && nr != SYS_ftruncate && nr != SYS_fallocate &&
	     nr != SYS_copy_file_range && nr != SYS_sendfile))
		return;
	char src[64];
	struct stat st;
	snprintf(src, sizeof src, "/proc/%d/fd/%d", R.p.pid, (int)a[fd]);
	if (stat(src, &st) < 0)
		return;
	for (int i = 0; i < R.nshared; i++)
		if (R.shared[i].dev == st.st_dev && R.shared[i].ino == st.st_ino)
			save_mem(R.shared[i].addr, R.shared[i].addr + R.shared[i].len);
}

/* Track which fds are rec's stdout and stderr, so their writes are kept
 * for replay to print. */
static void track_fds(const struct sys_entry *e, long nr, const uint64_t a[6], int64_t ret)
{
	if (ret < 0)
		return;
	if (nr == SYS_close && a[0] < NFD)
		R.fdk[a[0]] = 0;
	else if (nr == SYS_close_range)
		for (uint64_t fd = a[0]; fd <= a[1] && fd < NFD; fd++)
			R.fdk[fd] = 0;
	else if (ret < NFD && (nr == SYS_dup || nr == SYS_dup2 || nr == SYS_dup3 ||
			       (nr == SYS_fcntl && (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC))))
		R.fdk[ret] = a[0] < NFD ? R.fdk[a[0]] : 0;
	else if (e->ret == R_FD && ret < NFD)
		R.fdk[ret] = 0;
}

/* Where the ret bytes a copying call (sendfile, copy_file_range) took
 * from a regular file began: *offp after the call, or the file position,
 * minus ret. Returns -1 if the source cannot be read again. */
static int64_t copied_from(uint64_t fd, uint64_t offp, int64_t ret)
{
	char path[64], line[256];
	int64_t pos = -1;
	if (offp) {
		if (pt_read(&R.p, offp, &pos, 8) != 8)
			return -1;
		return pos - ret;
	}
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", R.p.pid, (int)fd);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "pos: %" SCNd64, &pos) == 1)
			break;
	if (f)
		fclose(f);
	return pos < 0 ? -1 : pos - ret;
}

/* Bytes a write-family call sent to rec's stdout or stderr, kept so that
 * replay can print them again. */
static void emit_writes(long nr, const uint64_t a[6], int64_t ret)
{
	/* Which argument is the destination, and for copies the source fd
	 * and its offset pointer. */
	int out = 0, in = -1, offp = -1;
	if (nr == SYS_copy_file_range)
		out = 2, in = 0, offp = 1;
	else if (nr == SYS_sendfile)
		in = 1, offp = 2;
	else if (nr == SYS_splice)
		out = 2;
	else if (nr == SYS_tee)
		out = 1;
	else if (nr != SYS_write && nr != SYS_pwrite64 && nr != SYS_sendto && nr != SYS_sendmsg &&
		 nr != SYS_writev && nr != SYS_pwritev && nr != SYS_pwritev2)
		return;
	int k = a[out] < NFD ? R.fdk[a[out]] : 0;
	if (!k || ret <= 0)
		return;
	uint8_t *buf = xmalloc(ret);
	ssize_t n = -1;
	uint64_t full;
	if (nr == SYS_write || nr == SYS_pwrite64 || nr == SYS_sendto) {
		n = pt_read(&R.p, a[1], buf, ret);
	} else if (nr == SYS_writev || nr == SYS_pwritev || nr == SYS_pwritev2) {
		n = cap_gather_iov(&R.p, a[1], a[2], buf, ret, &full);
	} else if (in >= 0) {
		int64_t from = copied_from(a[in], a[offp], ret);
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/fd/%d", R.p.pid, (int)a[in]);
		int fd = from < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = pread(fd, buf, ret, from);
			close(fd);
		}
	}
	if (n != ret) {
		const struct sys_entry *e = sys_lookup(nr);
		stop_recording(EXIT_TRACE, "the program sent data to %s with %s, whose bytes rewind "
		    "cannot recover; the trace %s ends before it", k == 1 ? "stdout" : "stderr",
		    e ? e->name : "?", R.dir);
	}
	tw_item(&R.w, IT_EMIT, k, NULL, 0, buf, n);
	free(buf);
}

static int wait_stop(int *st)
{
	int intr = 0;
	for (;;) {
		if (!term_sig && pt_wait(&R.p, st, &intr) >= 0)
			return pt_classify(*st);
		if (!term_sig && errno != EINTR && !intr)
			die(EXIT_TRACE, "wait: %s", strerror(errno));
		if (term_sig)
			stop_recording(128 + term_sig, "killed by signal %d; the trace %s ends early",
				       term_sig, R.dir);
		if (flush_due) {
			flush_due = 0;
			flush_or_die();
		}
		intr = 0;
	}
}

static void record_exit(int st)
{
	begin(TR_EXIT, 0);
	tw_put32(&R.w, st);
	tw_put32(&R.w, 0);
	tw_end(&R.w);
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void __attribute__((noreturn)) finish(int st)
{
	record_exit(st);
	if (tw_close(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
	exit(exit_code(st));
}

/* Handle a seccomp stop: run the call to its exit and record it; ends
 * rec if the program exited inside the call. */
static void do_syscall(void)
{
	struct user_regs_struct regs;
	uint64_t a[6];
	int st;
	R.at_exit = 0;
	pt_getregs(&R.p, &regs);
	long nr = regs.orig_rax;
	pt_args(&regs, a);
	const struct sys_entry *e = sys_lookup(nr);
	if (!e || e->class == C_UNSUP)
		stop_recording(EXIT_TRACE, "the program made syscall %s (%ld), which rewind "
			       "cannot record yet; the trace %s ends before it",
			       e ? e->name : "unknown", nr, R.dir);
	begin(TR_SYSCALL, e->class == C_EXIT ? TRF_NORETURN : 0);
	size_t fixed = R.w.len - R.w.recstart;	/* a flush may move the record */
	tw_put16(&R.w, nr);
	tw_put16(&R.w, 0);
	tw_put32(&R.w, 0);
	tw_put(&R.w, a, sizeof a);
	tw_put64(&R.w, 0);	/* ret, patched below */
	cap_inputs(&R.p, e, a, item_arg, NULL);
	if (e->class == C_EXIT) {
		tw_end(&R.w);
		return;
	}
	/* Raise one held signal now: it is delivered when this call ends
	 * (or interrupts it if it blocks, as it would have natively), at a
	 * syscall boundary, where replay can raise it again. */
	if (R.nstash && !R.injected) {
		R.injected = R.stash[0].si_signo;
		syscall(SYS_tgkill, R.p.pid, R.p.pid, R.injected);
	}
	pt_resume(&R.p, 1, 0);
	int k = wait_stop(&st);
	if (k == PS_EXEC) {
		pt_resume(&R.p, 1, 0);
		k = wait_stop(&st);
	}
	if (k == PS_EXITED) {
		memcpy(R.w.buf + R.w.recstart + 2, &(uint16_t){ TRF_NORETURN }, 2);
		tw_end(&R.w);
		finish(st);
	}
	if (k != PS_SYSEXIT)
		die(EXIT_TRACE, "unexpected stop 0x%x inside syscall %s", st, e->name);
	pt_getregs(&R.p, &regs);
	int64_t ret = regs.rax;
	memcpy(R.w.buf + R.w.recstart + fixed + 56, &ret, 8);
	cap_outputs(&R.p, e, a, ret, item_mem, NULL);
	emit_writes(nr, a, ret);
	if (e->class == C_EXECVE && ret == 0)
		record_exec(&regs);
	if (e->class == C_MMAP && ret >= 0 && !(a[3] & MAP_ANONYMOUS)) {
		char src[64];
		struct stat fst;
		snprintf(src, sizeof src, "/proc/%d/fd/%d", R.p.pid, (int)a[4]);
		if (stat(src, &fst) == 0 && S_ISREG(fst.st_mode)) {
			char path[4096];
			ssize_t n = readlink(src, path, sizeof path - 1);
			path[n > 0 ? n : 0] = 0;
			store_file(src, path, IF_MAP, a[5], fd_writable(a[4]));
			if ((a[3] & MAP_SHARED_VALIDATE) != MAP_PRIVATE) {
				R.shared = xrealloc(R.shared, (R.nshared + 1) * sizeof *R.shared);
				R.shared[R.nshared++] = (struct shared){ fst.st_dev, fst.st_ino, ret, a[1] };
			}
		} else if (!(S_ISCHR(fst.st_mode) && fst.st_rdev == makedev(1, 5))) {
			stop_recording(EXIT_TRACE, "the program mapped %s, which is not a regular "
				       "file; rewind cannot record that yet", src);
		}
	}
	if (ret == 0 && nr == SYS_madvise && (a[2] == MADV_DONTNEED || a[2] == 24))
		file_pages(a[0], a[0] + a[1]);	/* 24: MADV_DONTNEED_LOCKED */
	else if (ret >= 0 && nr == SYS_mremap && a[2] > a[1])
		file_pages(ret, ret + a[2]);
	shared_pages(nr, a, ret);
	for (int i = 0; nr == SYS_munmap && ret == 0 && i < R.nshared; i++)
		if (R.shared[i].addr >= a[0] && R.shared[i].addr + R.shared[i].len <= a[0] + a[1])
			R.shared[i--] = R.shared[--R.nshared];
	track_fds(e, nr, a, ret);
	tw_end(&R.w);
	if (flush_due) {
		flush_due = 0;
		flush_or_die();
	}
	R.at_exit = 1;
	R.exit_regs = regs;
}

static int is_sync(const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP: case SIGSYS:
		return si->si_code > 0;
	}
	return 0;
}

/* rdtsc and rdtscp trap (PR_TSC_SIGSEGV); run them here and record the
 * value. Returns 1 if the stop was one of them. */
static int do_rdtsc(const siginfo_t *si, struct user_regs_struct *regs)
{
	uint8_t insn[3];
	if (si->si_signo != SIGSEGV || si->si_code != SI_KERNEL ||
	    pt_read(&R.p, regs->rip, insn, 3) != 3 || insn[0] != 0x0f)
		return 0;
	int isp = insn[1] == 0x01 && insn[2] == 0xf9;
	if (insn[1] != 0x31 && !isp)
		return 0;
	unsigned aux = 0;
	uint64_t tsc = isp ? __rdtscp(&aux) : __rdtsc();
	uint64_t rip = regs->rip;
	regs->rax = (uint32_t)tsc;
	regs->rdx = tsc >> 32;
	if (isp)
		regs->rcx = aux;
	regs->rip += isp ? 3 : 2;
	pt_setregs(&R.p, regs);
	begin(TR_RDTSC, 0);
	tw_put64(&R.w, rip);
	tw_put64(&R.w, tsc);
	tw_put32(&R.w, aux);
	tw_put32(&R.w, isp);
	tw_end(&R.w);
	return 1;
}

/* A signal-delivery-stop. Returns the signal to deliver (0 for none). */
static int do_signal(int sig)
{
	siginfo_t si;
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETSIGINFO, R.p.pid, 0, &si) < 0)
		return 0;	/* group-stop: resume */
	pt_getregs(&R.p, &regs);
	if (do_rdtsc(&si, &regs))
		return 0;
	int flags = 0;
	if (!is_sync(&si)) {
		int boundary = R.at_exit && !memcmp(&regs, &R.exit_regs, sizeof regs);
		int i;
		for (i = 0; i < R.nstash && R.stash[i].si_signo != sig; i++)
			;
		if (!boundary) {
			/* Hold it: delivered here, replay could not find the
			 * spot without counters. */
			if (i == R.nstash && R.nstash < 64)
				R.stash[R.nstash++] = si;
			return 0;
		}
		if (i < R.nstash) {
			si = R.stash[i];
			ptrace(PTRACE_SETSIGINFO, R.p.pid, 0, &si);
			memmove(&R.stash[i], &R.stash[i + 1], (R.nstash - i - 1) * sizeof si);
			R.nstash--;
		}
		if (sig == R.injected)
			R.injected = 0;
		flags = TRS_ASYNC;
	}
	begin(TR_SIGNAL, 0);
	tw_put32(&R.w, sig);
	tw_put32(&R.w, flags);
	tw_put(&R.w, &si, 128);
	tw_end(&R.w);
	return sig;
}

static void record_start(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	begin(TR_START, 0);
	tw_put64(&R.w, ts.tv_sec * 1000000000ull + ts.tv_nsec);
	tw_put32(&R.w, R.p.pid);
	tw_put32(&R.w, 0);
	char cwd[4096] = "";
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, "?");
	tw_item(&R.w, IT_CWD, 0, NULL, 0, cwd, strlen(cwd));
	char cpu[8192];
	cpu_desc(cpu, sizeof cpu);
	tw_item(&R.w, IT_CPU, 0, NULL, 0, cpu, strlen(cpu));
	tw_end(&R.w);
}

int main(int argc, char **argv)
{
	progname = "rec";
	const char *outdir = NULL;
	static const struct option lo[] = { { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "+o:h", lo, NULL)) != -1) {
		if (c == 'o')
			outdir = optarg;
		else if (c == 'h')
			usage(0);
		else
			usage(EXIT_USAGE);
	}
	if (optind >= argc)
		usage(EXIT_USAGE);
	const char *prog = find_prog(argv[optind]);
	if (!prog)
		die(127, "%s: command not found", argv[optind]);
	if (access(prog, X_OK) < 0)
		die(errno == ENOENT ? 127 : 126, "%s: %s", prog, strerror(errno));
	make_dir(outdir, argv[optind]);
	fprintf(stderr, "rec: recording to %s\n", R.dir);

	for (int fd = 1; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			R.fdk[fd] = fd;
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pt_spawn(&R.p, prog, argv + optind, environ, NULL);
	struct itimerval it = { { 1, 0 }, { 1, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	record_start();
	do_syscall();		/* the execve */
	int sig = 0, st;
	for (;;) {
		pt_resume(&R.p, 0, sig);
		sig = 0;
		int k = wait_stop(&st);
		switch (k) {
		case PS_EXITED:
			finish(st);
		case PS_SECCOMP:
			do_syscall();	/* sets at_exit when done */
			continue;
		case PS_SIGNAL:
			sig = do_signal(WSTOPSIG(st));
			break;
		default:
			break;
		}
		R.at_exit = 0;
	}
}
