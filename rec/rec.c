/* rec: runs a program under ptrace and a seccomp filter and writes every
 * source of nondeterminism it meets into a trace directory (see
 * rec(1) and rewind-trace(5)). */
#include "answer.h"
#include "bufabi.h"
#include "bufdrain.h"
#include "cap.h"
#include "cpu.h"
#include "dirty.h"
#include "emu.h"
#include "maps.h"
#include "memfile.h"
#include "outs.h"
#include "pos.h"
#include "probe.h"
#include "pt.h"
#include "ptemu.h"
#include "sys.h"
#include "task.h"
#include "trace.h"
#include "tsc.h"
#include "util.h"
#include "vdso.h"

#include <dirent.h>
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
#include <sched.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

extern char **environ;

static struct {
	struct trace_writer w;
	char dir[4096];
	uint64_t event;
	struct task **tasks;
	int ntasks;
	pid_t root;		/* the recorded program's first process */
	int root_status;
	uint64_t seq;
	int chaos;
	uint64_t seed, rng;
	int tsc_way;		/* how rdtsc is made to stop (enum tsc_way) */
	struct { dev_t dev; ino_t ino; off_t size; struct timespec mtime; uint64_t hash; } fcache[256];
	int nfcache;
} R;

struct task *cur;

/* Timeslices are counted in ticks of the interval timer. */
#define TICK_US 5000
#define SLICE_TICKS 4
static volatile pid_t run_tid;		/* the thread running user code */
static volatile int run_ticks;		/* since it was scheduled */
static volatile int seg_ticks;		/* since its last syscall */
static volatile int slice_ticks = SLICE_TICKS;
/* Ticks without a syscall after which the running thread is stopped:
 * its timeslice when others wait, HELD_TICKS when only a held signal
 * waits (the next syscall is the cheaper place to deliver it), 0 never. */
#define HELD_TICKS 20
static volatile int want_ticks;
static volatile pid_t preempting;	/* the thread we sent SIGSTOP */
/* The thread that just gave way (a yield, the end of its timeslice, a
 * preemption, or --chaos's coin): with --chaos, another runs next. */
static pid_t gave_way;
static int ticks_to_flush;

static volatile sig_atomic_t flush_due, term_sig;
/* Ticks since SIGTERM while rec was too busy to take it (hashing or
 * copying a huge file): after TERM_TICKS it leaves at once, the trace
 * ending at its last flush, the program killed (PTRACE_O_EXITKILL). */
#define TERM_TICKS (1000000 / TICK_US)
static volatile int term_ticks;
static char term_msg[] = "rec: killed by signal NN; the trace ends early\n";

/* The ticks since the last SIGALRM: one, or more when rec itself did not
 * run for a while (a loaded machine), as SIGALRMs that come while one is
 * pending merge into it. Counting handler calls instead, a thread could
 * compute its whole work unpreempted while rec waited for a CPU, another
 * thread waiting all that time (bigspin under load: no preemption). */
static int ticks_passed(void)
{
	static struct timespec t0;
	static long long seen;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!t0.tv_sec && !t0.tv_nsec)
		t0 = now;
	long long total = ((now.tv_sec - t0.tv_sec) * 1000000000ll + now.tv_nsec - t0.tv_nsec) /
			  (TICK_US * 1000ll);
	long long n = total - seen;
	if (n < 1)
		n = 1;		/* early: counted now, the next one waits */
	if (n > 1000000 / TICK_US)
		n = 1000000 / TICK_US;
	seen += n;
	if (seen < total)
		seen = total;
	return (int)n;
}

/* Every tick: flush once a second, and stop a thread that has run its
 * timeslice without a syscall while another waits. */
static void on_alarm(int sig)
{
	(void)sig;
	int n = ticks_passed();
	if (term_sig && (term_ticks += n) >= TERM_TICKS) {
		term_msg[22] = '0' + term_sig / 10 % 10;
		term_msg[23] = '0' + term_sig % 10;
		(void)!write(2, term_msg, sizeof term_msg - 1);
		_exit(128 + term_sig);
	}
	if ((ticks_to_flush += n) >= 1000000 / TICK_US) {
		ticks_to_flush = 0;
		flush_due = 1;
	}
	if (!run_tid)
		return;
	run_ticks += n;
	if (want_ticks && preempting != run_tid && (seg_ticks += n) >= want_ticks) {
		preempting = run_tid;
		syscall(SYS_tkill, run_tid, SIGSTOP);
	} else if (want_ticks && seg_ticks + 1 >= want_ticks) {
		buf_poke(run_tid);	/* a traced call is a cheaper place to stop */
	}
}

/* SIGINT or SIGQUIT sent to rec (or to its process group, as by a
 * script): passed on to the program's group, which it would have reached
 * without rec. A terminal's ^C reaches the program's group directly. */
static void on_intr(int sig)
{
	if (R.root > 0 && kill(-R.root, sig) < 0)
		kill(R.root, sig);
}

/* SIGTERM or SIGHUP: keep what was recorded, then go as told. */
static void on_term(int sig)
{
	term_sig = sig;
}

static const char usage_line[] =
	"usage: rec [-o DIR] [--chaos[=SEED]] [--] PROG [ARGS...] | rec --probe\n";
static const char help[] =
	"Run PROG under ptrace and record everything that makes it nondeterministic\n"
	"(syscall results, signals, rdtsc, the schedule of its threads) into a trace\n"
	"directory; PROG's output and exit status are its own.\n"
	"\n"
	"  -o DIR            record into DIR (made mode 0700) instead of\n"
	"                    $REWIND_DIR/NAME-N; latest-trace is not moved\n"
	"  --chaos[=SEED]    shake the schedule (random next thread, random\n"
	"                    timeslices, yields after syscalls) to bring out rare\n"
	"                    races; SEED (0 to 2^64-1) is kept in the trace\n"
	"  --probe           print which machine features rec can use (rdtsc trap,\n"
	"                    debug registers, perf breakpoints...) and exit\n"
	"  --                end of options: what follows is PROG, even \"-x\"\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"Traces go to ${REWIND_DIR:-$HOME/.local/share/rewind}. See rec(1).\n";

/* The terminal rec found its process group in the foreground of, which
 * it hands to the program's group (as a shell would to a job) and takes
 * back at the end, or -1. */
static int tty_fd = -1;

static void tty_back(void)
{
	if (tty_fd >= 0)
		tcsetpgrp(tty_fd, getpgrp());
}

/* Give the terminal to the program's process group pgid when rec's group
 * has it: ^C and ^Z then reach the program, as without rec. */
static void tty_give(pid_t pgid)
{
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd) && tcgetpgrp(fd) == getpgrp()) {
			signal(SIGTTOU, SIG_IGN);	/* to write and take it back */
			if (tcsetpgrp(fd, pgid) == 0) {
				tty_fd = fd;
				atexit(tty_back);
			}
			return;
		}
}

static void __attribute__((noreturn)) usage(int status)
{
	if (status)
		fputs(usage_line, stderr);
	else
		printf("%s\n%s", usage_line, help);
	exit(status);
}

static void flush_or_die(void)
{
	if (tw_flush(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
}

/* The program stopped for the terminal (^Z, or a read or write from the
 * background) with signal sig: rec stops the same way, as the job the
 * shell sees, the terminal back with its group. When continued (fg or
 * bg), it continues the program, giving it the terminal again if rec's
 * group has it. */
static void job_stop(int sig)
{
	if (tty_fd < 0)
		return;
	flush_or_die();
	tcsetpgrp(tty_fd, getpgrp());
	raise(sig);		/* returns at SIGCONT */
	if (tcgetpgrp(tty_fd) == getpgrp())
		tcsetpgrp(tty_fd, R.root);
	kill(-R.root, SIGCONT);
}

void stop_recording(int status, const char *fmt, ...)
{
	char msg[4600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	flush_or_die();
	for (int i = 0; i < R.ntasks; i++)
		kill(R.tasks[i]->p.pid, SIGKILL);
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

/* Whether path is a directory with nothing in it (errno EEXIST if not). */
static int empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = d != NULL;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	errno = EEXIST;
	return empty;
}

/* Make the trace directory: DIR from -o, else the next free NAME-N under
 * trace_home() with latest-trace pointing at it. */
static void make_dir(const char *opt, const char *prog)
{
	if (opt) {
		if (mkdir(opt, 0700) < 0 && (errno != EEXIST || !empty_dir(opt)))
			die(EXIT_TRACE, "%s: %s", opt, errno == EEXIST ?
			    "exists and is not an empty directory (rec -o takes a new or empty one)" :
			    strerror(errno));
		if (chmod(opt, 0700) < 0)	/* it holds everything the program read */
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
	ssize_t n = 0;
	int rc = 0;
	/* Only the data: a hole (a 100 GB sparse file) stays a hole. */
	off_t at = 0, end = lseek(in, 0, SEEK_END);
	while (at < end && (at = lseek(in, at, SEEK_DATA)) >= 0) {
		if (lseek(outfd, at, SEEK_SET) < 0 || lseek(in, at, SEEK_SET) < 0) {
			rc = -1;
			break;
		}
		off_t hole = lseek(in, at, SEEK_HOLE);
		lseek(in, at, SEEK_SET);
		while (at < hole && (n = read(in, buf, sizeof buf)) > 0) {
			if (write_all(outfd, buf, n) < 0) {
				rc = -1;
				break;
			}
			at += n;
		}
		if (n <= 0 || rc < 0)
			break;
	}
	if (n < 0 || (rc == 0 && ftruncate(outfd, end) < 0))
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
	long long flags = pt_fdinfo(cur->p.pid, fd, "flags:", 8);
	return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY;
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
	tw_item(ctx, IT_ARG, arg, &full, 8, data, len);
}

static void item_mem(void *ctx, uint64_t addr, const void *data, size_t len)
{
	(void)ctx;
	tw_item(&R.w, IT_MEM, 0, &addr, 8, data, len);
}

static void flush_entries(uint64_t before);

/* Start a record of the current task, after the entries of syscalls
 * that began before it. */
static void begin(int kind, int flags)
{
	flush_entries(UINT64_MAX);
	tw_begin(&R.w, kind, flags, R.event++, cur->p.pid);
}

/* Where to read the ELF interpreter the kernel mapped at lo-hi (file
 * offset off) from. /proc/PID/map_files reaches the mapped file itself,
 * but only with CAP_SYS_ADMIN (or CAP_CHECKPOINT_RESTORE); an ordinary
 * user reads its path instead, after checking that the file there holds
 * the bytes mapped (the first page carries the ELF headers and build id),
 * so a loader replaced since the execve is never taken for the one that
 * ran. */
static const char *interp_src(unsigned long lo, unsigned long hi, unsigned long off,
			      const char *name)
{
	static char src[128];
	char mem[4096], file[4096];
	snprintf(src, sizeof src, "/proc/%d/map_files/%lx-%lx", cur->p.pid, lo, hi);
	if (access(src, R_OK) == 0)
		return src;
	size_t n = hi - lo < sizeof mem ? hi - lo : sizeof mem;
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, file, n, off);
	if (fd >= 0)
		close(fd);
	if (fd < 0)
		die(EXIT_TRACE, "%s: %s", name, strerror(errno));
	if (got != (ssize_t)n || pt_read(&cur->p, lo, mem, n) != (ssize_t)n || memcmp(mem, file, n))
		die(EXIT_TRACE, "%s: changed since the program started (and %s cannot be read "
		    "without CAP_SYS_ADMIN)", name, src);
	return name;
}

/* After a successful execve: the new executable and interpreter, the
 * registers, and the initial stack (with the vDSO hidden from libc, so
 * that clocks go through syscalls we can record). */
static void vdso_show(void);

static void record_exec(struct user_regs_struct *regs)
{
	char src[64], path[4096];
	pt_reopen_mem(&cur->p);
	dirty_forget(cur->tgid);
	snprintf(src, sizeof src, "/proc/%d/exe", cur->p.pid);
	ssize_t n = readlink(src, path, sizeof path - 1);
	if (n < 0)
		die(EXIT_TRACE, "%s: %s", src, strerror(errno));
	path[n] = 0;
	store_file(src, path, IF_EXE, 0, 0);

	/* maps names a deleted file (a memfd) without its " (deleted)". */
	char mapname[4096];
	snprintf(mapname, sizeof mapname, "%s", path);
	if (n > 10 && !strcmp(mapname + n - 10, " (deleted)"))
		mapname[n - 10] = 0;
	char mpath[64];
	uint64_t stack_top = 0;
	int have_interp = 0;
	snprintf(mpath, sizeof mpath, "/proc/%d/maps", cur->p.pid);
	FILE *f = maps_open(cur->p.pid);
	if (!f)
		die(EXIT_TRACE, "%s: %s", mpath, strerror(errno));
	struct maps_line m;
	while (maps_next(f, &m)) {
		if (!strcmp(m.name, "[stack]"))
			stack_top = m.hi;
		else if (m.name[0] == '/' && strcmp(m.name, mapname) && !have_interp) {
			store_file(interp_src(m.lo, m.hi, m.off, m.name), m.name, IF_INTERP, 0, 0);
			have_interp = 1;
		}
	}
	fclose(f);
	if (!stack_top)
		die(EXIT_TRACE, "%s: no [stack] mapping", mpath);

	/* Hide AT_SYSINFO_EHDR: walk argc, argv, envp to the auxv. */
	uint64_t sp = regs->rsp, argc, v;
	pt_read(&cur->p, sp, &argc, 8);
	uint64_t a = sp + 8 * (argc + 2);
	while (pt_read(&cur->p, a, &v, 8) == 8 && v)
		a += 8;
	for (a += 8;; a += 16) {
		uint64_t av[2];
		if (pt_read(&cur->p, a, av, 16) != 16 || av[0] == AT_NULL)
			break;
		if (av[0] == AT_SYSINFO_EHDR) {
			uint64_t ign = AT_IGNORE;
			pt_write(&cur->p, a, &ign, 8);
			cur->vdso_slot = a;	/* shown again by vdso_show() */
			cur->vdso = av[1];
		}
	}
	size_t len = stack_top - sp;
	uint8_t *stack = xmalloc(len);
	if (pt_read(&cur->p, sp, stack, len) != (ssize_t)len)
		die(EXIT_TRACE, "cannot read the initial stack");
	tw_item(&R.w, IT_REGS, 0, regs, sizeof *regs, NULL, 0);
	tw_item(&R.w, IT_STACK, 0, &sp, 8, stack, len);
	free(stack);
	tsc_exec(&cur->p, cur->tgid, path);
}

/* At the first syscall after an exec, the dynamic loader (or a static
 * libc) has read the auxiliary vector without the vDSO, so libc's clocks
 * make syscalls. A program that looks the vDSO up itself finds it again,
 * its functions made into syscalls too. The changed bytes are the call's
 * outputs, so replay makes them the same. */
static void vdso_show(void)
{
	uint64_t lo = 0, hi = 0, slot = cur->vdso_slot, val[2] = { AT_SYSINFO_EHDR, cur->vdso };
	cur->vdso_slot = 0;
	FILE *f = maps_open(cur->p.pid);
	struct maps_line m;
	while (f && maps_next(f, &m))
		if (!strcmp(m.name, "[vdso]")) {
			lo = m.lo;
			hi = m.hi;
			break;
		}
	if (f)
		fclose(f);
	if (lo != cur->vdso || hi <= lo || hi - lo > (1 << 20))
		return;		/* unmapped or moved: it stays hidden */
	if (vdso_patch(&cur->p, lo, hi - lo, item_mem, NULL) >= 0 &&
	    pt_write(&cur->p, slot, val, 16) == 0)
		tw_item(&R.w, IT_MEM, 0, &slot, 8, val, 16);
}

/* Save tracee memory [from, to) as an IT_MEM item of the current record. */
static void save_mem(uint64_t from, uint64_t to)
{
	uint8_t *buf = xmalloc(to - from);
	ssize_t n = pt_read(&cur->p, from, buf, to - from);
	if (n > 0)
		tw_item(&R.w, IT_MEM, 0, &from, 8, buf, n);
	free(buf);
}

/* madvise(MADV_DONTNEED) and a growing mremap refill private file
 * mappings from the file. Replay's copies of those mappings are
 * anonymous, so save what the pages hold now as kernel output. */
static void file_pages(uint64_t lo, uint64_t hi)
{
	FILE *f = maps_open(cur->p.pid);
	struct maps_line m;
	while (f && maps_next(f, &m)) {
		if (!m.ino || m.perm[3] != 'p' || m.hi <= lo || m.lo >= hi)
			continue;
		save_mem(m.lo > lo ? m.lo : lo, m.hi < hi ? m.hi : hi);
	}
	if (f)
		fclose(f);
}

/* cur attached a SysV shared memory segment at addr (shmat): replay
 * emulates it as it does a file mapped shared (one copy, which every
 * attachment in any process maps). Its bytes now go in as the file's,
 * read from the mapping; the segment's own dev and inode name it. */
static void shm_attached(uint64_t addr, int writable)
{
	char path[64], line[4500], name[64] = "SYSV";
	unsigned long lo = 0, hi = 0, ino = 0;
	unsigned maj = 0, mnr = 0;
	int found = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", cur->p.pid);
	FILE *f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof line, f))
		found = sscanf(line, "%lx-%lx %*s %*s %x:%x %lu %63s", &lo, &hi, &maj, &mnr, &ino,
			       name) == 6 && lo == addr;
	if (f)
		fclose(f);
	if (!found)
		stop_recording(EXIT_TRACE, "the program attached SysV shared memory at 0x%llx, which "
			       "its maps do not show; the trace %s ends before it",
			       (unsigned long long)addr, R.dir);
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/files/.shm", R.dir);
	int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	static uint8_t buf[1 << 16], zero[1 << 16];
	int ok = fd >= 0 && ftruncate(fd, hi - lo) == 0;
	for (uint64_t at = lo; ok && at < hi; at += sizeof buf) {
		size_t n = hi - at < sizeof buf ? hi - at : sizeof buf;
		ok = pt_read(&cur->p, at, buf, n) == (ssize_t)n &&
		     (!memcmp(buf, zero, n) || pwrite(fd, buf, n, at - lo) == (ssize_t)n);
	}
	if (!ok)
		stop_recording(EXIT_TRACE, "cannot read the SysV shared memory the program attached at "
			       "0x%llx: %s; the trace %s ends before it", (unsigned long long)addr,
			       strerror(errno), R.dir);
	struct stat st;
	fstat(fd, &st);
	close(fd);
	store_file(tmp, name, IF_MAP, 0, 1);
	unlink(tmp);
	/* The next temporary file may get its inode: not the same file. */
	for (int i = 0; i < R.nfcache; i++)
		if (R.fcache[i].dev == st.st_dev && R.fcache[i].ino == st.st_ino)
			R.fcache[i--] = R.fcache[--R.nfcache];
	uint64_t id[3] = { makedev(maj, mnr), ino, writable };
	tw_item(&R.w, IT_EMUFILE, 0, id, 20, NULL, 0);
}

/* 1 or 2 when the program's fd is rec's stdout or stderr, else 0. */
static int out_kind(uint64_t fd)
{
	int k = outs_kind(cur->p.pid, fd);
	if (k < 0)
		stop_recording(EXIT_TRACE, "cannot tell where descriptor %d of process %d goes: "
			       "/proc/%d/fd/%d: %s (a process that is not dumpable is recorded "
			       "by root only); the trace %s ends before it",
			       (int)fd, cur->p.pid, cur->p.pid, (int)fd, strerror(-k), R.dir);
	return k;
}

/* Where the ret bytes a copying call (sendfile, copy_file_range) took
 * from a regular file began: *offp after the call, or the file position,
 * minus ret. Returns -1 if the source cannot be read again. */
static int64_t copied_from(uint64_t fd, uint64_t offp, int64_t ret)
{
	int64_t pos = -1;
	if (offp) {
		if (pt_read(&cur->p, offp, &pos, 8) != 8)
			return -1;
		return pos - ret;
	}
	pos = pt_fdinfo(cur->p.pid, fd, "pos:", 10);
	return pos < 0 ? -1 : pos - ret;
}

/* For a call that sends data to an fd: which argument is the
 * destination (the return value), and for copies the source fd and its
 * offset pointer; -1 for other calls. */
static int out_arg(long nr, int *in, int *offp)
{
	*in = *offp = -1;
	if (nr == SYS_copy_file_range)
		return *in = 0, *offp = 1, 2;
	if (nr == SYS_sendfile)
		return *in = 1, *offp = 2, 0;
	if (nr == SYS_splice)	/* from a file: read again; from a pipe: gone */
		return *in = 0, *offp = 1, 2;
	if (nr == SYS_tee)
		return 1;
	if (nr == SYS_write || nr == SYS_pwrite64 || nr == SYS_sendto || nr == SYS_sendmsg ||
	    nr == SYS_writev || nr == SYS_pwritev || nr == SYS_pwritev2)
		return 0;
	return -1;
}

/* 1 or 2 when the call cur enters sends data to rec's stdout or stderr. */
static int out_call(long nr, const uint64_t a[6])
{
	int in, offp, out = out_arg(nr, &in, &offp);
	return out < 0 ? 0 : out_kind(a[out]);
}

/* Bytes a write-family call sent to rec's stdout or stderr, kept so that
 * replay can print them again. */
static void emit_writes(long nr, const uint64_t a[6], int64_t ret)
{
	int in, offp, out = out_arg(nr, &in, &offp);
	if (out < 0 || ret <= 0)
		return;
	int k = out_kind(a[out]);
	if (!k)
		return;
	uint8_t *buf = xmalloc(ret);
	ssize_t n = -1;
	uint64_t full;
	if (nr == SYS_write || nr == SYS_pwrite64 || nr == SYS_sendto) {
		n = pt_read(&cur->p, a[1], buf, ret);
	} else if (nr == SYS_writev || nr == SYS_pwritev || nr == SYS_pwritev2) {
		n = cap_gather_iov(&cur->p, a[1], a[2], buf, ret, &full);
	} else if (in >= 0) {
		int64_t from = copied_from(a[in], a[offp], ret);
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/fd/%d", cur->p.pid, (int)a[in]);
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

void ready(struct task *t)
{
	static uint64_t n;
	t->state = T_READY;
	t->since = ++n;
}

struct task *task_nth(int i)
{
	return i < R.ntasks ? R.tasks[i] : NULL;
}

const char *rec_dir(void)
{
	return R.dir;
}

struct task *find_task(pid_t tid)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->p.pid == tid)
			return R.tasks[i];
	return NULL;
}

static struct task *add_task(pid_t tid, pid_t tgid)
{
	struct task *t = calloc(1, sizeof *t);
	if (!t)
		die(EXIT_TRACE, "out of memory");
	t->p.pid = tid;
	t->p.memfd = -1;
	t->tgid = tgid;
	t->state = T_NEW;
	t->fresh = 1;
	R.tasks = xrealloc(R.tasks, (R.ntasks + 1) * sizeof *R.tasks);
	R.tasks[R.ntasks++] = t;
	return t;
}

static void drop_task(struct task *t)
{
	for (int i = 0; i < R.ntasks; i++) {
		if (R.tasks[i]->parent == t)
			R.tasks[i]->parent = NULL;
		if (R.tasks[i]->tracer == t)
			ptemu_untrace(R.tasks[i]);
	}
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i] == t) {
			memmove(&R.tasks[i], &R.tasks[i + 1], (R.ntasks - i - 1) * sizeof t);
			R.ntasks--;
			break;
		}
	if (run_tid == t->p.pid)
		run_tid = 0;
	if (t->p.memfd >= 0)
		close(t->p.memfd);
	free(t->stage.buf);
	free(t);
}

/* Write the entries of syscalls still in the kernel that began before
 * seq as TRF_ENTRY records, oldest first: a record of another thread
 * comes after them. */
static void flush_entries(uint64_t before)
{
	for (;;) {
		struct task *o = NULL;
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i]->open && R.tasks[i]->seq < before &&
			    (!o || R.tasks[i]->seq < o->seq))
				o = R.tasks[i];
		if (!o)
			return;
		o->open = 0;
		tw_begin(&R.w, TR_SYSCALL, TRF_ENTRY, R.event++, o->p.pid);
		tw_put(&R.w, o->stage.buf, o->stage.len);
		tw_end(&R.w);
	}
}

/* Whether a SIGCONT came for a task in a group-stop (it is pending, since
 * a tracee's signals wait for the tracer): such tasks may run again,
 * and take it. ptrace reports no such event; this looks at every tick. */
static int continued(void)
{
	int any = 0;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		uint64_t pend = 0, shared = 0, mask = 1ull << (SIGCONT - 1);
		if (t->state != T_STOPPED)
			continue;
		if (pt_status_hex(t->p.pid, "SigPnd:", &pend) < 0 ||
		    pt_status_hex(t->p.pid, "ShdPnd:", &shared) < 0 || ((pend | shared) & mask)) {
			ready(t);
			any = 1;
		}
	}
	return any;
}

/* From any task, wait_any returns 0 too when one in a group-stop may run
 * again. It flushes and takes SIGTERM between. */
pid_t wait_any(pid_t tid, int *st, int nohang)
{
	for (;;) {
		if (term_sig)
			stop_recording(128 + term_sig, "killed by signal %d; the trace %s ends early",
				       term_sig, R.dir);
		if (flush_due) {
			flush_due = 0;
			flush_or_die();
		}
		if (tid == -1 && continued())
			return 0;
		pid_t pid = waitpid(tid, st, __WALL | (nohang ? WNOHANG : 0));
		if (pid >= 0)
			return pid;
		if (errno == ECHILD && tid != -1 && nohang)
			return 0;	/* its execve gave it the leader's id */
		if (errno != EINTR)
			die(EXIT_TRACE, "wait: %s", strerror(errno));
	}
}

static void record_exit(int kind, int st)
{
	begin(kind, 0);
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
	record_exit(TR_EXIT, st);
	if (tw_close(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
	for (int i = 0; i < R.ntasks; i++)	/* what the program left running */
		kill(R.tasks[i]->p.pid, SIGKILL);
	exit(exit_code(st));
}

static uint64_t rnd(void)
{
	R.rng ^= R.rng << 13;
	R.rng ^= R.rng >> 7;
	R.rng ^= R.rng << 17;
	return R.rng;
}

/* The thread clone/fork made starts with a SIGSTOP; once it and its
 * parent's event are both seen, it may run. */
static void new_task(pid_t tid, struct task *parent, int thread)
{
	struct task *t = find_task(tid);
	if (!t)
		t = add_task(tid, thread ? parent->tgid : tid);
	t->tgid = thread ? parent->tgid : tid;
	if (!thread)
		tsc_fork(parent->tgid, tid);
	t->own = parent->own;
	t->parent = thread ? parent->parent : parent;
	pt_reopen_mem(&t->p);
	if (!t->fresh)
		ready(t);
}

/* The clone flags of the call t is in. */
static uint64_t clone_flags(struct task *t)
{
	uint64_t f = 0;
	if (t->nr == SYS_clone)
		return t->a[0];
	if (t->nr == SYS_vfork)
		return CLONE_VM | CLONE_VFORK | SIGCHLD;
	if (t->nr == SYS_clone3 && pt_read(&t->p, t->a[0], &f, 8) == 8)
		return f;
	return SIGCHLD;
}

/* A vfork parent returns when its child's execve has replaced the
 * memory they shared, before that execve ends. Replay performs the
 * execve when it ends, so record that end first. */
static void vfork_child_exec(void)
{
	struct task *parent = cur;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		while (t->state == T_KERNEL && sys_row(t->nr)->class == C_EXECVE) {
			int st;
			pid_t tid = t->p.pid;
			wait_any(tid, &st, 0);
			cur = t;
			handle(st);
			if (!find_task(tid))
				break;
		}
	}
	cur = parent;
}

/* prctl PR_SET_DUMPABLE's values (the kernel's SUID_DUMP_*). */
enum { DUMP_DISABLE = 0, DUMP_USER = 1 };

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
static int64_t own_settings(struct user_regs_struct *r)
{
	uint64_t *a = cur->a;
	int64_t ret = r->rax;
	if (cur->nr == SYS_prctl && a[0] == PR_SET_TSC && r->rsi != a[1]) {
		r->rsi = a[1];	/* as the program passed it */
		pt_setregs(&cur->p, r);
	}
	if (ret < 0)
		return ret;
	if (cur->nr == SYS_seccomp ? a[0] == SECCOMP_SET_MODE_FILTER :
	    a[0] == PR_SET_SECCOMP && a[1] == SECCOMP_MODE_FILTER)
		cur->own.seccomp = SECCOMP_MODE_FILTER;
	if (cur->nr == SYS_seccomp)
		return ret;
	switch (a[0]) {
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

/* A write into the process's own memory through /proc/PID/mem is an
 * output of the call, which replay writes back; one into another
 * process's cannot be replayed. */
static void mem_written(long nr, const uint64_t a[6], int64_t ret)
{
	uint64_t addr = 0;
	long target = memfile_written(cur->p.pid, nr, a, ret, &addr);
	struct task *t = target > 0 ? find_task(target) : NULL;
	if (target > 0 && (target == cur->tgid || (t && t->tgid == cur->tgid)))
		save_mem(addr, addr + ret);
	else if (target)
		stop_recording(EXIT_TRACE, "the program wrote through /proc/%ld/mem into memory "
			       "that is not its own (or at a place rec cannot tell); rewind "
			       "cannot record that yet; the trace %s ends before it",
			       target, R.dir);
}

/* The id thread tid (as rec sees it) sees for itself: the last one on
 * the NSpid line of its status, or ret where that cannot be read. */
static uint32_t self_id(uint32_t tid, int64_t ret)
{
	char line[256], *end;
	uint32_t id = ret;
	char *s = pt_status(tid, "NSpid:", line, sizeof line);
	for (long v; s && ((v = strtol(s, &end, 10)), end != s); s = end)
		id = v;
	return id;
}

/* Whether syscall nr with arguments a is a futex op that takes a PI
 * lock, blocking while another thread owns it. */
static int pi_acquire(long nr, const uint64_t *a)
{
	int op = (int)(a[1] & 127);
	return nr == SYS_futex && (op == FUTEX_LOCK_PI || op == 13 /* FUTEX_LOCK_PI2 */ ||
				   op == FUTEX_WAIT_REQUEUE_PI);
}

/* The signals pending for the stopped thread p, its own (set[0]) and
 * its process's (set[1]): at a syscall exit, what the kernel delivers
 * before it runs user code again. Blocked ones are left in
 * (PTRACE_GETSIGMASK gives the mask a sigsuspend restores, not the one
 * it waits with): one that waits for its unblocking is delivered after
 * another call, with other registers. A queue longer than it reads only
 * leaves signals out, which is safe (do_signal holds those). */
static void pending_now(struct pt_proc *p, uint64_t set[2])
{
	siginfo_t q[16];
	for (int shared = 0; shared < 2; shared++) {
		struct __ptrace_peeksiginfo_args a = { 0, shared ? PTRACE_PEEKSIGINFO_SHARED : 0, 16 };
		long n = ptrace(PTRACE_PEEKSIGINFO, p->pid, &a, q);
		set[shared] = 0;
		for (long i = 0; i < n; i++)
			if (q[i].si_signo > 0 && q[i].si_signo <= 64)
				set[shared] |= 1ull << (q[i].si_signo - 1);
	}
}

/* The end of the syscall cur is in: its result and outputs, as the rest
 * of its record (nothing came between) or as a TR_SYSRET. */
static void syscall_exit(void)
{
	struct user_regs_struct regs;
	if (pt_getregs_alive(&cur->p, &regs) < 0)
		return;		/* killed from outside: task_gone() ends the call */
	const struct sys_entry *e = sys_row(cur->nr);
	long nr = cur->nr;
	uint64_t *a = cur->a;
	int64_t ret = regs.rax;
	if (cur->kicked) {
		cur->kicked = 0;
		if (cap_is_restart(ret) && nr == SYS_wait4 && ptemu_wait(a, &ret) == 1) {
			regs.rax = ret;
			pt_setregs(&cur->p, &regs);
		}
	}
	const char *why = cap_unknown(&cur->p, e, a, ret);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s (%s), whose outputs rewind cannot "
			       "record yet; the trace %s ends before it", e->name, why, R.dir);
	if (nr == SYS_prctl || nr == SYS_seccomp)
		ret = own_settings(&regs);
	if ((clone_flags(cur) & CLONE_VFORK) && e->class == C_CLONE)
		vfork_child_exec();
	/* A whole call goes where it began; an end goes after every call
	 * that began before it. So does a PI lock's taking, which the
	 * owner's later FUTEX_UNLOCK_PI may have handed over: the owner's
	 * unlock checks that the word names it still (a robust one), so
	 * the word must name the new owner only after that call's entry. */
	flush_entries(cur->open && !pi_acquire(nr, a) ? cur->seq : UINT64_MAX);
	/* The end of an execve that made a thread the leader is the end of
	 * the call its old id began. */
	pid_t tid = cur->exec_tid ? cur->exec_tid : cur->p.pid;
	cur->exec_tid = 0;
	if (cur->open) {
		tw_begin(&R.w, TR_SYSCALL, 0, R.event++, tid);
		memcpy(cur->stage.buf + 56, &ret, 8);
		tw_put(&R.w, cur->stage.buf, cur->stage.len);
		cur->open = 0;
	} else {
		tw_begin(&R.w, TR_SYSRET, 0, R.event++, tid);
		tw_put32(&R.w, (uint32_t)nr);
		tw_put32(&R.w, 0);
		tw_put64(&R.w, ret);
	}
	cap_outputs(&cur->p, e, a, ret, item_mem, NULL);
	if (cur->vdso_slot && (e->class == C_EMU || e->class == C_EXEC || e->class == C_MMAP))
		vdso_show();
	for (int i = 0; i < cur->nemu_out; i++)	/* what an emulated call wrote */
		save_mem(cur->emu_out[i][0], cur->emu_out[i][0] + cur->emu_out[i][1]);
	if (e->class == C_CLONE && ret > 0) {
		/* Said from the flags: a vfork child may be gone already. */
		/* In a pid namespace the program sees other ids than rec: the
		 * item names the thread as the records do (rec's view), and
		 * says which id the new thread sees for itself. */
		uint32_t child = cur->child ? (uint32_t)cur->child : (uint32_t)ret;
		uint32_t ids[3] = { child, clone_flags(cur) & CLONE_THREAD ? (uint32_t)cur->tgid : child,
				    self_id(child, ret) };
		tw_item(&R.w, IT_TASK, 0, ids, sizeof ids, NULL, 0);
		/* The pidfd the kernel wrote: replay's gets another number,
		 * having opened none of the program's files. */
		uint64_t pidfdp = 0;
		if (clone_flags(cur) & CLONE_PIDFD) {
			if (nr == SYS_clone)
				pidfdp = a[2];
			else if (nr == SYS_clone3)
				pt_read(&cur->p, a[0] + 8, &pidfdp, 8);
		}
		if (pidfdp)
			save_mem(pidfdp, pidfdp + 4);
	}
	emit_writes(nr, a, ret);
	memfile_opened(cur->p.pid, nr, ret);
	mem_written(nr, a, ret);
	if (e->class == C_EXECVE && ret == 0) {
		cur->own.nodump = 0;	/* exec makes it dumpable again */
		record_exec(&regs);
	}
	if ((nr == SYS_set_robust_list && ret == 0) || (e->class == C_EXECVE && ret == 0))
		cur->robust = nr == SYS_set_robust_list ? a[0] : 0;
	if (nr == SYS_shmat && ret >= 0)
		shm_attached(ret, !(a[2] & SHM_RDONLY));
	else if (e->class == C_MMAP && ret >= 0 && !(a[3] & MAP_ANONYMOUS)) {
		char src[64];
		struct stat fst;
		snprintf(src, sizeof src, "/proc/%d/fd/%d", cur->p.pid, (int)a[4]);
		if (stat(src, &fst) == 0 && S_ISREG(fst.st_mode)) {
			char path[4096];
			ssize_t n = readlink(src, path, sizeof path - 1);
			path[n > 0 ? n : 0] = 0;
			int wr = fd_writable(a[4]);
			if (emu_map(&cur->p, a, &fst, wr)) {
				/* Any process may have the file open: none
				 * writes without a stop from now on. */
				for (int i = 0; i < R.ntasks; i++)
					buf_nowrite(&R.tasks[i]->p);
				/* Its bytes now, hashed afresh (stores through a
				 * mapping need not change the mtime), and copied:
				 * they change. */
				for (int i = 0; i < R.nfcache; i++)
					if (R.fcache[i].dev == fst.st_dev && R.fcache[i].ino == fst.st_ino)
						R.fcache[i--] = R.fcache[--R.nfcache];
				store_file(src, path, IF_MAP, a[5], 1);
				uint64_t id[3] = { fst.st_dev, fst.st_ino, wr };
				tw_item(&R.w, IT_EMUFILE, 0, id, 20, NULL, 0);
			} else {
				store_file(src, path, IF_MAP, a[5], wr);
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
	char emu_why[4600];
	if (emu_patch(&R.w, &cur->p, nr, a, ret, emu_why, sizeof emu_why) < 0)
		stop_recording(EXIT_TRACE, "%s", emu_why);
	int busy = 0;
	for (int i = 0; i < R.ntasks; i++)
		busy |= R.tasks[i] != cur && R.tasks[i]->state == T_KERNEL && emu_changes(R.tasks[i]->nr);
	int k = emu_outside(&R.w, busy, emu_why, sizeof emu_why);
	if (k < 0)
		stop_recording(EXIT_TRACE, "%s", emu_why);
	if (k > 0)
		warnx_("%s", emu_why);
	if (nr == SYS_fanotify_init && ret >= 0 && (a[0] & 0xc))	/* a permission class */
		for (int i = 0; i < R.ntasks; i++)
			buf_stop(&R.tasks[i]->p);
	char fdpath[64];
	snprintf(fdpath, sizeof fdpath, "/proc/%d/fd/%d", cur->p.pid, (int)a[4]);
	tsc_syscall(&cur->p, cur->tgid, nr, a, ret, fdpath);
	buf_after(&cur->p, nr, a, ret);
	tw_end(&R.w);
	ready(cur);
	cur->at_exit = 1;
	cur->exit_regs = regs;
	pending_now(&cur->p, cur->exit_pend);
	ptemu_exit_stop(nr, ret);
}

/* Whether pid is a process (or thread) being recorded. */
static int in_tree(uint64_t pid)
{
	for (int i = 0; i < R.ntasks; i++)
		if ((uint64_t)R.tasks[i]->p.pid == pid || (uint64_t)R.tasks[i]->tgid == pid)
			return 1;
	return 0;
}

/* Why the call nr of cur (registers r, at its entry) cannot be recorded,
 * or NULL: the 32-bit entries, and requests whose outputs the table
 * cannot say (cap_refusal). */
static const char *refusal(long nr, const struct user_regs_struct *r)
{
	static char why[160];
	uint16_t insn = 0;
	uint64_t a[6];
	pt_read(&cur->p, r->rip - 2, &insn, 2);
	if (insn == 0x80cd || insn == 0x340f) {
		snprintf(why, sizeof why, "a 32-bit syscall (%s, number %ld)",
			 insn == 0x80cd ? "int $0x80" : "sysenter", nr);
		return why;
	}
	pt_args(r, a);
	if ((nr == SYS_sendmmsg || nr == SYS_vmsplice) && out_kind(a[0])) {
		snprintf(why, sizeof why, "%s to %s", nr == SYS_vmsplice ? "vmsplice" : "sendmmsg",
			 out_kind(a[0]) == 1 ? "stdout" : "stderr");
		return why;
	}
	if (nr == SYS_process_vm_writev && !in_tree(a[0])) {
		snprintf(why, sizeof why, "process_vm_writev into process %d (outside the "
			 "recording)", (int)a[0]);
		return why;
	}
	const char *c = cap_refusal(sys_row(nr), a);
	if (!c)
		return NULL;
	snprintf(why, sizeof why, "%s", c);
	return why;
}

/* Seccomp strict mode, which rewind's own filter rules out in the
 * kernel, is kept here: the call that enters it (nr, registers r) is
 * answered without the kernel, and in it a call other than read, write,
 * exit and rt_sigreturn kills the thread with SIGKILL, as the kernel's
 * check would; it never runs. Returns 1 for such a call. */
static int seccomp_strict(long nr, struct user_regs_struct *r)
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
	if (nr == SYS_seccomp ? a[0] != SECCOMP_SET_MODE_STRICT :
	    nr != SYS_prctl || a[0] != PR_SET_SECCOMP || a[1] != SECCOMP_MODE_STRICT)
		return 0;
	/* A thread with a filter of its own cannot enter it (EINVAL). */
	r->rax = cur->own.seccomp || (nr == SYS_seccomp && (a[1] || a[2])) ? -EINVAL : 0;
	r->orig_rax = -1;
	pt_setregs(&cur->p, r);
	if (!r->rax) {
		cur->own.strict = 1;
		buf_want_traced(&cur->p);	/* its calls must stop to be checked */
	}
	return 0;
}

static void exit_robust_marks(long nr);
static void process_robust_marks(pid_t tgid, struct trace_writer *w);
static void kill_robust_marks(long nr, const uint64_t *a, struct trace_writer *w);

/* cur's run of user code ends there. Stage the record, and let the
 * kernel run the call while another thread runs. */
void syscall_entry(void)
{
	if (ptemu_entry_stop())
		return;
	struct user_regs_struct regs;
	if (pt_getregs_alive(&cur->p, &regs) < 0)
		return;		/* killed from outside since handle() looked */
	long nr = (int32_t)regs.orig_rax;	/* all the kernel reads of it */
	const struct sys_entry *e = sys_row(nr);
	if (e->class == C_UNSUP)
		stop_recording(EXIT_TRACE, "the program made syscall %s (%ld), which rewind "
			       "cannot record yet; the trace %s ends before it", e->name, nr, R.dir);
	const char *why = refusal(nr, &regs);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s, which rewind cannot record yet; "
			       "the trace %s ends before it", why, R.dir);
	uint64_t args[6];
	pt_args(&regs, args);
	long answer = sys_lookup(nr) ? answer_entry(cur->p.pid, cur->tgid, nr, args) : -ENOSYS;
	if (answer) {
		/* No such call (or x32's): ENOSYS, as from a kernel without
		 * it; and the few calls rec answers the same way. */
		regs.orig_rax = -1;
		regs.rax = answer;
		pt_setregs(&cur->p, &regs);
	}
	int killed = seccomp_strict(nr, &regs);
	cur->nr = nr;
	pt_args(&regs, cur->a);
	if (nr == SYS_prctl && regs.rdi == PR_SET_TSC && (regs.rsi == PR_TSC_ENABLE ||
	    regs.rsi == PR_TSC_SIGSEGV)) {
		/* rdtsc keeps trapping; the program's own mode is kept
		 * here, and its PR_TSC_SIGSEGV honoured by do_rdtsc(). */
		cur->own.tsc = regs.rsi;
		regs.rsi = PR_TSC_SIGSEGV;
		pt_setregs(&cur->p, &regs);
	}
	if (nr == SYS_prctl && regs.rdi == PR_SET_DUMPABLE && regs.rsi == DUMP_DISABLE &&
	    geteuid() != 0) {
		/* Non-dumpable, the program would close its /proc files to
		 * an ordinary user's rec: it stays dumpable, and is told it
		 * is not (PR_GET_DUMPABLE), until it says otherwise or
		 * executes a program. */
		set_nodump(1);
		regs.orig_rax = -1;
		regs.rax = 0;
		pt_setregs(&cur->p, &regs);
	}
	struct trace_writer *s = &cur->stage;
	s->len = 0;
	tw_put32(s, (uint32_t)nr);
	tw_put32(s, 0);
	tw_put(s, cur->a, sizeof cur->a);
	tw_put64(s, 0);		/* ret, filled in at the end */
	cap_inputs(&cur->p, e, cur->a, item_arg, s);
	if (nr == SYS_kill || nr == SYS_tkill || nr == SYS_tgkill || nr == SYS_pidfd_send_signal)
		kill_robust_marks(nr, cur->a, s);
	cur->at_exit = 0;
	cur->held_blocked = 0;
	cur->entry_regs = regs;
	cur->nemu_out = 0;
	cur->child = 0;
	if (e->class == C_CLONE && (clone_flags(cur) & CLONE_UNTRACED)) {
		/* A child that escapes rec would run unrecorded and every
		 * syscall of it would fail (the filter's RET_TRACE with no
		 * tracer); traced like any other, it is recorded. Replay
		 * strips the flag the same way. */
		if (nr != SYS_clone)
			stop_recording(EXIT_TRACE, "the program called %s with CLONE_UNTRACED, which "
				       "rewind cannot record yet; the trace %s ends before it",
				       e->name, R.dir);
		regs.rdi &= ~(uint64_t)CLONE_UNTRACED;
		pt_setregs(&cur->p, &regs);
	}
	int parked = ptemu_call(&regs) == 2;
	if (e->class == C_EXIT || killed) {
		cur->out = 0;	/* a write before it is over */
		begin(TR_SYSCALL, TRF_NORETURN);
		tw_put(&R.w, s->buf, s->len);
		if (e->class == C_EXIT)
			exit_robust_marks(nr);
		tw_end(&R.w);
		cur->state = T_KERNEL;
		pt_resume(&cur->p, RESUME_CONT, 0);
		return;
	}
	/* Raise one held signal now: it is delivered when this call ends
	 * (or interrupts it if it blocks, as it would have natively), at a
	 * syscall boundary, where replay can raise it again. */
	if (cur->nstash && !cur->injected) {
		cur->injected = cur->stash[0].si_signo;
		syscall(SYS_tgkill, cur->tgid, cur->p.pid, cur->injected);
	}
	cur->open = 1;
	cur->seq = R.seq++;
	cur->state = T_KERNEL;
	cur->out = out_call(nr, cur->a);
	if (parked) {
		cur->pwait = 1;
		return;
	}
	pt_resume(&cur->p, RESUME_SYSCALL, 0);
	if (e->class == C_CLONE) {
		/* The new thread exists at once: take its id now, so that
		 * the entry names it even when its end comes much later (a
		 * vfork parent waits for its child). */
		int st;
		wait_any(cur->p.pid, &st, 0);
		handle(st);
	}
}

static int is_sync(const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP: case SIGSYS:
		return si->si_code > 0;
	}
	return 0;
}

/* rdtsc and rdtscp stop (lib/tsc.h); run them here and record the
 * value. Returns 1 if the stop was one of them. */
static int do_rdtsc(const siginfo_t *si, struct user_regs_struct *regs)
{
	int kind = tsc_stopped(&cur->p, cur->tgid, si, regs->rip);
	/* The program's own PR_TSC_SIGSEGV: the trap's fault is its own.
	 * A patched place stops with SIGILL: there the host (or
	 * REWIND_NO_TSC_TRAP) has no trap, and rdtsc runs as it would
	 * natively on such a host. */
	if (cur->own.tsc == PR_TSC_SIGSEGV && si->si_signo == SIGSEGV)
		kind = 0;
	if (!kind)
		return 0;
	int isp = kind == 2;
	unsigned aux = 0;
	uint64_t tsc = isp ? __rdtscp(&aux) : __rdtsc();
	uint64_t rip = regs->rip;
	regs->rax = (uint32_t)tsc;
	regs->rdx = tsc >> 32;
	if (isp)
		regs->rcx = aux;
	regs->rip += isp ? 3 : 2;
	pt_setregs(&cur->p, regs);
	begin(TR_RDTSC, 0);
	tw_put64(&R.w, rip);
	tw_put64(&R.w, tsc);
	tw_put32(&R.w, aux);
	tw_put32(&R.w, isp);
	tw_end(&R.w);
	return 1;
}

void record_signal(int sig, int flags, const siginfo_t *si)
{
	begin(TR_SIGNAL, 0);
	tw_put32(&R.w, sig);
	tw_put32(&R.w, flags);
	tw_put(&R.w, si, 128);
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

/* Record cur's state as a TR_PREEMPT (registers, FP/vector state, its
 * process's memory by blocks, each block's bytes once in the trace;
 * flags TRP_*): replay makes the state so there. Returns -1, having
 * recorded nothing, when cur is being killed. */
int record_state(struct user_regs_struct *regs, uint64_t flags)
{
	static struct pos_store written;	/* blocks already in the trace */
	static struct pos_shadow last;		/* each block as last recorded */
	static uint8_t xor[POS_BLOCK];
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
	begin(TR_PREEMPT, 0);
	tw_put64(&R.w, regs->rip);
	tw_put64(&R.w, flags | (uffd >= 0 ? TRP_SINCE : 0));
	tw_item(&R.w, IT_REGS, 0, regs, sizeof *regs, NULL, 0);
	tw_item(&R.w, IT_XSTATE, 0, xs, xlen, NULL, 0);
	tw_item(&R.w, IT_HASHES, 0, ps.b, ps.nb * sizeof *ps.b, NULL, 0);
	for (int i = 0; i < ps.nb; i++) {
		const struct pos_block *b = &ps.b[i];
		if (!ps.data[i])
			continue;
		if (!pos_store_has(&written, b->hash)) {
			uint64_t h[2] = { b->hash };
			const uint8_t *base = pos_shadow_get(&last, cur->tgid, b->addr, b->len, &h[1]);
			if (base) {
				for (uint64_t k = 0; k < b->len; k++)
					xor[k] = ps.data[i][k] ^ base[k];
				tw_item(&R.w, IT_XBLOCK, 0, h, 16, xor, b->len);
			} else {
				tw_item(&R.w, IT_BLOCK, 0, &b->hash, 8, ps.data[i], b->len);
			}
			pos_store_add(&written, b->hash, (const uint8_t *)"", 0);
		}
		pos_shadow_set(&last, cur->tgid, b->addr, b->len, b->hash, ps.data[i]);
	}
	tw_end(&R.w);
	pos_free(&ps);
	return 0;
}

/* cur was stopped by our SIGSTOP between syscalls: record its state
 * there, which replay makes again, then deliver what it held. */
static void preempted(struct user_regs_struct *regs)
{
	gave_way = cur->p.pid;
	/* Replay raises a signal with no preemption before it where the
	 * thread was last: here now, not at its last syscall's exit. */
	cur->at_exit = 0;
	/* Its first preemption gives the process a userfaultfd. The calls
	 * injected for it end this signal-delivery-stop: a held signal
	 * waits for the next syscall or preemption (below), else a process
	 * that always holds one (a fast timer) would never have one. */
	int moved = 0;
	if (!cur->tracer)
		moved = dirty_setup(&cur->p, cur->tgid, cur->stash, &cur->nstash, 64);
	/* A SIGSTOP of ours that came during those calls was dropped there:
	 * without this, none would be sent to it again (on_alarm), and a
	 * thread that spins would never give way (spin count hung rec). One
	 * still on its way is passed over when it comes (do_signal). */
	if (moved && preempting == cur->p.pid)
		preempting = 0;
	if (record_state(regs, TRP_RAN) < 0) {
		ready(cur);	/* it dies when resumed */
		return;
	}
	/* The first held signal it does not block now is delivered here,
	 * and replay raises it at the same place. One it blocked since it
	 * came (rt_sigprocmask, a handler's mask) waits for the call that
	 * lets it in, as it would natively: made the stop's signal, the
	 * kernel would only queue it again, and replay would wait here for
	 * a delivery that never came (and find the next call instead). */
	uint64_t blocked = 0;
	ptrace(PTRACE_GETSIGMASK, cur->p.pid, sizeof blocked, &blocked);
	int i = 0;
	while (i < cur->nstash && (blocked >> (cur->stash[i].si_signo - 1) & 1))
		i++;
	cur->held_blocked = cur->nstash && i == cur->nstash;
	if (cur->nstash && moved) {
		buf_want_traced(&cur->p);	/* came meanwhile: held */
	} else if (i < cur->nstash) {
		siginfo_t si = cur->stash[i];
		memmove(&cur->stash[i], &cur->stash[i + 1], (cur->nstash - i - 1) * sizeof si);
		cur->nstash--;
		record_signal(si.si_signo, TRS_ASYNC, &si);
		ptrace(PTRACE_SETSIGINFO, cur->p.pid, 0, &si);
		cur->sig = si.si_signo;
	}
	ready(cur);
}

/* A signal-delivery-stop of cur (running). Returns 1 if cur keeps
 * running (resumed), 0 if it stopped running. */
static int do_signal(int sig)
{
	siginfo_t si;
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETSIGINFO, cur->p.pid, 0, &si) < 0) {
		/* A group-stop (SIGSTOP, SIGTSTP...): it stays stopped, as its
		 * parent may see with WUNTRACED, until a SIGCONT comes. */
		cur->state = T_STOPPED;
		if (sig != SIGSTOP && cur->p.pid == R.root)
			job_stop(sig);
		return 0;
	}
	pt_getregs(&cur->p, &regs);
	int boundary = cur->at_exit && !memcmp(&regs, &cur->exit_regs, sizeof regs);
	/* rec's own SIGSTOP preempts, unless it raised a held SIGSTOP of
	 * the program's (the two look alike: cur->injected tells). In a
	 * pid namespace rec's id shows as 0 (it is outside). */
	if (sig == SIGSTOP && si.si_code == SI_TKILL && cur->injected != SIGSTOP &&
	    (si.si_pid == getpid() ||
	     (si.si_pid == 0 && self_id(cur->p.pid, cur->p.pid) != (uint32_t)cur->p.pid))) {
		if (preempting == cur->p.pid)
			preempting = 0;
		if ((boundary && !cur->nstash) || !want_ticks || seg_ticks < want_ticks ||
		    buf_busy(&cur->p)) {
			/* At a syscall already, or sent for an earlier
			 * timeslice: it goes on. */
			pt_resume(&cur->p, RESUME_CONT, 0);
			return 1;
		}
		preempted(&regs);
		return 0;
	}
	if (do_rdtsc(&si, &regs)) {
		pt_resume(&cur->p, RESUME_CONT, 0);
		return 1;
	}
	int flags = 0;
	if (!is_sync(&si)) {
		/* Registers alone do not say it is at the exit still: a
		 * thread that spins comes back to the same ones, and a signal
		 * that came then, raised by replay at the exit, would run its
		 * handler on other memory. It is there if the signal waited
		 * at the exit (or is the one raised at the entry). Once the
		 * process's queue has none left, a process-wide one waits
		 * for no other thread either. */
		uint64_t bit = 1ull << (sig - 1), now[2];
		boundary = boundary && (sig == cur->injected ||
					((cur->exit_pend[0] | cur->exit_pend[1]) & bit));
		cur->exit_pend[0] &= ~bit;
		cur->exit_pend[1] &= ~bit;
		pending_now(&cur->p, now);
		if (!(now[1] & bit))	/* no other thread takes it now */
			for (int k = 0; k < R.ntasks; k++)
				if (R.tasks[k]->tgid == cur->tgid)
					R.tasks[k]->exit_pend[1] &= ~bit;
		int i;
		for (i = 0; i < cur->nstash && cur->stash[i].si_signo != sig; i++)
			;
		if (!boundary) {
			/* Hold it for the next syscall, where replay can raise
			 * it; if none comes within a timeslice, the thread is
			 * stopped and it is delivered there. A standard
			 * signal held already merges with it, as pending
			 * ones do; real-time signals queue, each held. */
			if ((i == cur->nstash || sig >= SIGRTMIN) && cur->nstash < 64)
				cur->stash[cur->nstash++] = si;
			cur->held_blocked = 0;	/* this one came in */
			buf_want_traced(&cur->p);
			pt_resume(&cur->p, RESUME_CONT, 0);
			return 1;
		}
		if (i < cur->nstash) {
			si = cur->stash[i];
			ptrace(PTRACE_SETSIGINFO, cur->p.pid, 0, &si);
			memmove(&cur->stash[i], &cur->stash[i + 1], (cur->nstash - i - 1) * sizeof si);
			cur->nstash--;
		}
		if (sig == cur->injected)
			cur->injected = 0;
		flags = TRS_ASYNC;
	}
	if (cur->tracer && sig != SIGKILL) {
		ptemu_signal_stop(sig, flags, &si);
		return 0;
	}
	record_signal(sig, flags, &si);
	pt_resume(&cur->p, RESUME_CONT, sig);
	return 1;
}

/* Let a ready thread run user code: the one ready longest, or with
 * --chaos one picked at random with a random timeslice. */
static void schedule(void)
{
	int n = 0;
	for (int i = 0; i < R.ntasks; i++)
		n += R.tasks[i]->state == T_READY && !R.tasks[i]->pstop;
	if (!n)
		return;
	/* The one ready longest never is the one that gave way, but a
	 * random pick may be: then it would not have given way at all,
	 * and the switches that bring out races would come half as often. */
	pid_t skip = R.chaos && n > 1 && find_task(gave_way) &&
		     find_task(gave_way)->state == T_READY && !find_task(gave_way)->pstop ? gave_way : 0;
	gave_way = 0;
	int pick = R.chaos ? (int)(rnd() % (n - !!skip)) : -1;
	struct task *t = NULL;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *c = R.tasks[i];
		if (c->state == T_READY && !c->pstop && c->p.pid != skip &&
		    (pick < 0 ? !t || c->since < t->since : pick-- == 0))
			t = c;
	}
	if (t->pcall == P_GO) {
		/* Let go by its tracer at a call's entry: the call begins. */
		cur = t;
		syscall_entry();
		schedule();
		return;
	}
	t->state = T_RUN;
	run_ticks = seg_ticks = 0;
	if (R.chaos)
		slice_ticks = 1 + rnd() % 8;
	run_tid = t->p.pid;
	int sig = t->sig;
	t->sig = 0;
	pt_resume(&t->p, RESUME_CONT, sig);
}

static void record_start(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	begin(TR_START, 0);
	tw_put64(&R.w, ts.tv_sec * 1000000000ull + ts.tv_nsec);
	tw_put32(&R.w, cur->p.pid);
	tw_put32(&R.w, R.tsc_way);	/* how rdtsc was made to stop */
	char cwd[4096] = "";
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, "?");
	tw_item(&R.w, IT_CWD, 0, NULL, 0, cwd, strlen(cwd));
	char cpu[8192];
	cpu_desc(cpu, sizeof cpu);
	tw_item(&R.w, IT_CPU, 0, NULL, 0, cpu, strlen(cpu));
	uint32_t abi = BUF_ABI;
	tw_item(&R.w, IT_BUFABI, 0, &abi, 4, NULL, 0);
	if (R.chaos)
		tw_item(&R.w, IT_CHAOS, 0, &R.seed, 8, NULL, 0);
	tw_end(&R.w);
}

/* The futex words on the robust list at head (an address in the memory
 * of p), at most max of them, into word; returns how many. */
static int robust_words(struct pt_proc *p, uint64_t head, uint64_t *word, int max)
{
	uint64_t h[3];	/* list, futex_offset, list_op_pending */
	if (!head || pt_read(p, head, h, sizeof h) != sizeof h)
		return 0;
	/* The entries, a circular list back to the head (the low bit of
	 * a link marks a PI mutex), then the one being locked or freed. */
	uint64_t at = h[0] & ~1ull;
	int n = 0;
	while (n < max - 1 && at && at != head) {
		word[n++] = at + h[1];
		if (pt_read(p, at, &at, 8) != 8)
			break;
		at &= ~1ull;
	}
	if (h[2] & ~1ull)
		word[n++] = (h[2] & ~1ull) + h[1];
	return n;
}

/* The futex words the kernel marked (FUTEX_OWNER_DIED) through the
 * robust list of cur, a thread that just ended, as IT_MEM items of the
 * record being built: its live siblings see them, and replay's kernel,
 * which knows the thread by another id than the one in the words, would
 * not mark them. Read through a sibling (the memory is theirs now). */
static void robust_marks(void)
{
	struct task *sib = NULL;
	for (int i = 0; i < R.ntasks && !sib; i++)
		if (R.tasks[i] != cur && R.tasks[i]->tgid == cur->tgid)
			sib = R.tasks[i];
	uint64_t word[2049];
	int n = sib ? robust_words(&sib->p, cur->robust, word, 2049) : 0;
	for (int i = 0; i < n; i++) {
		uint32_t w;
		if (pt_read(&sib->p, word[i], &w, 4) == 4)
			tw_item(&R.w, IT_MEM, 0, &word[i], 8, &w, 4);
	}
}

/* Where cur's process sees the word at addr of process tgid: the same
 * address in its own process, or for another process the address in
 * cur's where the same shared memory lies (a process-shared mutex, in a
 * mapping both share, maybe at other addresses); 0 if cur has none. */
static uint64_t shared_in_cur(pid_t tgid, uint64_t addr)
{
	if (tgid == cur->tgid)
		return addr;
	struct maps_line there, here;
	FILE *f = maps_open(tgid);
	int found = 0;
	while (f && !found && maps_next(f, &there))
		found = there.lo <= addr && addr < there.hi;
	if (f)
		fclose(f);
	if (!found || there.perm[3] != 's')
		return 0;
	uint64_t fo = there.off + (addr - there.lo), at = 0;
	f = maps_open(cur->tgid);
	while (f && !at && maps_next(f, &here))
		if (here.perm[3] == 's' && here.ino == there.ino && here.deleted == there.deleted &&
		    !strcmp(here.name, there.name) && here.off <= fo && fo + 4 <= here.off + (here.hi - here.lo))
			at = here.lo + (fo - here.off);
	if (f)
		fclose(f);
	return at;
}

/* The marks (FUTEX_OWNER_DIED) the kernel makes through the robust lists
 * of the threads of process tgid when it ends, as IT_MEM items into w.
 * Read while it still lives; replay writes them through cur, before the
 * end: so where tgid is another process, only the words in memory cur
 * shares with it (a process-shared mutex), where cur sees them. */
static void process_robust_marks(pid_t tgid, struct trace_writer *w)
{
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		if (t->tgid != tgid || !t->robust)
			continue;
		/* The kernel marks a word that holds the thread's id as
		 * the thread sees it (in its pid namespace). */
		uint32_t tid = self_id(t->p.pid, t->p.pid);
		uint64_t word[2049];
		int n = robust_words(&t->p, t->robust, word, 2049);
		for (int k = 0; k < n; k++) {
			uint32_t v;
			uint64_t at;
			if (pt_read(&t->p, word[k], &v, 4) != 4 || (v & FUTEX_TID_MASK) != tid ||
			    !(at = shared_in_cur(tgid, word[k])))
				continue;
			v = (v & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
			tw_item(w, IT_MEM, 0, &at, 8, &v, 4);
		}
	}
}

/* cur is at the entry of exit_group, or of exit as its process's last
 * thread: the marks the kernel is about to make through the robust lists
 * of the threads that end, as IT_MEM items of the call's record. No
 * sibling outlives them to show the marks afterwards (robust_marks), yet
 * the words may be in memory shared with other processes (a
 * process-shared mutex): replay writes them before the call. */
static void exit_robust_marks(long nr)
{
	for (int i = 0; i < R.ntasks; i++)
		if (nr == SYS_exit && R.tasks[i] != cur && R.tasks[i]->tgid == cur->tgid)
			return;
	process_robust_marks(cur->tgid, &R.w);
}

/* cur is at the entry of a kill, tkill, tgkill or pidfd_send_signal
 * (arguments a) that may send SIGKILL to a process of the tree: the
 * marks its end makes, as IT_MEM items of the call's record (staged in
 * w). Replay writes them as the call's outputs: the program learns of
 * the end (wait4) after it. */
static void kill_robust_marks(long nr, const uint64_t *a, struct trace_writer *w)
{
	int sig = nr == SYS_tgkill ? (int)a[2] : (int)a[1];
	pid_t id = (pid_t)a[nr == SYS_tgkill ? 1 : 0];
	if (sig != SIGKILL)
		return;
	if (nr == SYS_pidfd_send_signal) {
		/* The process the pidfd names, as rec sees it (its fdinfo
		 * read from here says the id in rec's pid namespace). */
		id = pt_fdinfo(cur->p.pid, a[0], "Pid:", 10);
		struct task *t = id > 0 ? find_task(id) : NULL;
		if (t && t->tgid == id)
			process_robust_marks(id, w);
		return;
	}
	struct task *t = id > 0 ? find_task(id) : NULL;
	/* kill names a process; ids the program sees in a pid namespace
	 * are not rec's, and are left alone. */
	if (!t || (nr == SYS_kill && t->tgid != id) || self_id(id, id) != (uint32_t)id)
		return;
	process_robust_marks(t->tgid, w);
}

/* A task ended (exited or killed). */
static void task_gone(int st)
{
	if (cur->tracer)
		ptemu_wake(cur->tracer, 1);
	if (cur->open) {
		/* Killed inside a call with nothing recorded since it began:
		 * SIGKILL (another thread's exit_group would be recorded). */
		flush_entries(cur->seq);
		cur->open = 0;
		tw_begin(&R.w, TR_SYSCALL, TRF_NORETURN, R.event++, cur->p.pid);
		tw_put(&R.w, cur->stage.buf, cur->stage.len);
		tw_end(&R.w);
	}
	if (cur->p.pid == R.root)
		finish(st);
	begin(TR_TASKEXIT, 0);
	tw_put32(&R.w, st);
	tw_put32(&R.w, 0);
	robust_marks();
	tw_end(&R.w);
	drop_task(cur);
}

/* A thread other than the leader (old) execs: the kernel ended the
 * other threads, gave it the leader's id, and reports its exec from
 * there (cur is the leader's task). The leader ends silently, and
 * whatever call it was in with it; the execing thread goes on under the
 * leader's id. */
static void leader_replaced(pid_t old)
{
	struct task *x = find_task(old), *l = cur;
	if (!x || x->tgid != l->p.pid)
		die(EXIT_TRACE, "exec of unknown thread %d in process %d", (int)old, l->p.pid);
	l->open = 0;
	record_exit(TR_TASKEXIT, 0);
	drop_task(l);
	if (x->p.memfd >= 0)
		close(x->p.memfd);
	x->p.memfd = -1;
	x->p.pid = x->tgid;
	x->exec_tid = old;
	cur = x;
}

static void put_buffered(void *ctx, const uint8_t *payload, size_t len)
{
	(void)ctx;
	begin(TR_SYSCALL, TRF_BUFFERED);
	tw_put(&R.w, payload, len);
	tw_end(&R.w);
}

void handle(int st)
{
	int k = pt_classify(st);
	/* The calls it made without a stop come before this one. */
	if (cur->state == T_RUN && (k == PS_SECCOMP || k == PS_SIGNAL))
		buf_drain(&cur->p, cur->nstash || cur->psys || cur->own.strict, put_buffered, NULL);
	if (k == PS_EXITED) {
		task_gone(st);
		return;
	}
	/* Killed since it stopped (kill -9 from outside, while rec drained
	 * its buffer, say): no request reaches it now, and its end is the
	 * next thing rec sees of it. */
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, cur->p.pid, 0, &r) < 0 && errno == ESRCH)
		return;
	if (cur->state == T_NEW && k != PS_SIGNAL)
		die(EXIT_TRACE, "unexpected first stop 0x%x of thread %d", st, cur->p.pid);
	int ev = st >> 16;
	switch (k) {
	case PS_SECCOMP:
		run_tid = 0;
		seg_ticks = 0;
		syscall_entry();
		break;
	case PS_SYSEXIT:
		syscall_exit();
		break;
	case PS_EXEC: {
		unsigned long old = 0;
		ptrace(PTRACE_GETEVENTMSG, cur->p.pid, 0, &old);
		if (old != (unsigned long)cur->p.pid)
			leader_replaced(old);
		pt_reopen_mem(&cur->p);
		pt_resume(&cur->p, RESUME_SYSCALL, 0);
		break;
	}
	case PS_SIGNAL:
		if (cur->state == T_NEW) {
			cur->fresh = 0;
			/* ready once the parent's clone event named it */
			if (cur->p.memfd >= 0)
				ready(cur);
			break;
		}
		if (!do_signal(WSTOPSIG(st)))
			run_tid = 0;
		break;
	default:
		if (ev == PTRACE_EVENT_CLONE || ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK) {
			unsigned long child = 0;
			ptrace(PTRACE_GETEVENTMSG, cur->p.pid, 0, &child);
			new_task(child, cur, (clone_flags(cur) & CLONE_THREAD) != 0);
			cur->child = child;
			uint64_t ret = child;
			memcpy(cur->stage.buf + 56, &ret, 8);
		}
		pt_resume(&cur->p, cur->state == T_KERNEL ? RESUME_SYSCALL : RESUME_CONT, 0);
		break;
	}
}

/* Whether a thread other than the running one waits to run. */
static int others_ready(void)
{
	for (int i = 0; i < R.ntasks; i++)
		if (R.tasks[i]->state == T_READY && !R.tasks[i]->pstop)
			return 1;
	return 0;
}

/* Whether syscall nr with arguments a is a futex op that writes a word
 * other threads change in user memory (FUTEX_WAKE_OP's second word, a PI
 * lock's word), and ends without blocking: rec reads the word at the
 * end, so no other thread may run before it. */
static int futex_word_write(long nr, const uint64_t *a)
{
	int op = (int)(a[1] & 127);
	return nr == SYS_futex && (op == FUTEX_WAKE_OP || op == FUTEX_UNLOCK_PI ||
				   op == FUTEX_TRYLOCK_PI || op == FUTEX_CMP_REQUEUE_PI);
}

/* t is blocked in a syscall whose entry is not yet written. A
 * FUTEX_LOCK_PI (or LOCK_PI2) that waits first sets FUTEX_WAITERS in the
 * lock word, which makes the owner's unlock call the kernel instead of
 * releasing the word itself: wait until the kernel made that mark and
 * the thread sleeps (or the call ended) before another thread runs, and
 * write the word as an IT_MEM item of the entry, which replay writes
 * there. t may be gone after. */
static void pi_waiters_mark(struct task *t)
{
	pid_t tid = t->p.pid;
	if (!pi_acquire(t->nr, t->a) || (t->a[1] & 127) == FUTEX_WAIT_REQUEUE_PI)
		return;
	uint32_t v;
	/* The kernel either marks the word and sleeps, or ends the call
	 * (took the lock, a fault, a timeout): each comes soon. The mark
	 * may be an earlier waiter's, so only its sleep (queued where the
	 * owner's unlock finds it) says the word is final. */
	for (;;) {
		char buf[512];
		const char *state = pt_stat(tid, buf, sizeof buf);
		int asleep = state && *state == 'S';
		if (pt_read(&t->p, t->a[0], &v, 4) != 4)
			return;
		if (asleep && (v & FUTEX_WAITERS))
			break;
		int st;
		if (wait_any(tid, &st, 1) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
		return;
	}
	if (!find_task(tid) || t->state != T_KERNEL || !t->open)
		return;
	tw_item(&t->stage, IT_MEM, 0, &t->a[0], 8, &v, 4);
}

/* cur just entered a syscall: most end at once, and then cur goes on
 * with its timeslice; one that blocks lets another thread run. So does
 * sched_yield, and the end of the timeslice. A call that sends data to
 * stdout or stderr lets none run until it ends, however long it blocks
 * (a full pipe, a stopped terminal): replay prints the data at the
 * call's end, so the data must reach the file in the order of the ends. */
static void await_quick_return(void)
{
	pid_t tid = cur->p.pid;
	long nr = cur->nr;
	struct task *t = cur;
	if (t->pwait)
		return;		/* until a tracee of it stops */
	/* The kernel clears an ending thread's id for a join
	 * (CLONE_CHILD_CLEARTID) as it goes: none runs before it is gone,
	 * or a join would find it cleared or not by timing. (The first
	 * thread's end is not reported while others live.) */
	int hold = t->out || (nr == SYS_exit && tid != t->tgid) || futex_word_write(nr, t->a);
	for (int i = 0; (hold || i < 40) && t->state == T_KERNEL; i++) {
		int st;
		/* Alone, it can only wait for the call's end. */
		if (wait_any(tid, &st, R.ntasks > 1 && !hold) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
		if (!find_task(tid))
			return;
	}
	if (t->state == T_KERNEL && t->open) {
		pi_waiters_mark(t);
		if (!find_task(tid))
			return;
	}
	if (t->state != T_READY || t->pstop)
		return;
	if (others_ready() && (nr == SYS_sched_yield || run_ticks >= slice_ticks ||
			       (R.chaos && rnd() % 2))) {
		gave_way = tid;
		return;
	}
	t->state = T_RUN;
	run_tid = tid;
	int sig = t->sig;
	t->sig = 0;
	pt_resume(&t->p, RESUME_CONT, sig);
}

/* When the running thread is stopped (want_ticks): at the end of its
 * timeslice if another waits, after HELD_TICKS if it holds a signal it
 * does not block, else never. */
static void set_want(void)
{
	struct task *r = run_tid ? find_task(run_tid) : NULL;
	want_ticks = others_ready() ? slice_ticks : r && r->nstash && !r->held_blocked ? HELD_TICKS : 0;
}

int main(int argc, char **argv)
{
	progname = "rec";
	const char *outdir = NULL;
	static const struct option lo[] = { { "help", no_argument, 0, 'h' },
					    { "chaos", optional_argument, 0, 'c' },
					    { "probe", no_argument, 0, 'p' },
					    { 0, 0, 0, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "+o:h", lo, NULL)) != -1) {
		if (c == 'o') {
			outdir = optarg;
		} else if (c == 'c') {
			R.chaos = 1;
			char *end = NULL;
			errno = 0;
			if (optarg)
				R.seed = strtoull(optarg, &end, 10);
			if (optarg && (!*optarg || *end || errno || *optarg < '0' || *optarg > '9'))
				die(EXIT_USAGE, "--chaos needs a number (0 to 2^64-1), not '%s'", optarg);
			if (!optarg && getrandom(&R.seed, sizeof R.seed, 0) != sizeof R.seed)
				R.seed = time(NULL) ^ getpid();
		} else if (c == 'p') {
			probe_print(stdout);
			buf_probe_print(stdout);
			return 0;
		} else if (c == 'h') {
			usage(0);
		} else {
			usage(EXIT_USAGE);
		}
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
	if (R.chaos) {
		fprintf(stderr, "rec: chaos seed %llu\n", (unsigned long long)R.seed);
		R.rng = R.seed * 0x9e3779b97f4a7c15ull + 1;
	}

	outs_init();
	/* What rec was started with ignored stays so for the program (which
	 * still gets SIGINT and SIGQUIT passed on: it may catch them), and
	 * SIGHUP for rec too (nohup). */
	const sigset_t *ign = pt_note_ignored();
	struct sigaction sa = { .sa_handler = on_intr };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	if (!sigismember(ign, SIGHUP))
		sigaction(SIGHUP, &sa, NULL);
	R.tsc_way = tsc_choose(-1);
	struct task *root = add_task(0, 0);
	/* The filter lets calls at the library's syscall instruction
	 * through even without the library: dirty.c injects some there. */
	pt_untraced_ip = BUF_UNTRACED_IP;
	pt_spawn(&root->p, prog, argv + optind, buf_setup(environ), NULL);
	root->tgid = R.root = root->p.pid;
	tty_give(root->p.pid);
	root->fresh = 0;
	root->state = T_RUN;
	cur = root;
	struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };
	setitimer(ITIMER_REAL, &it, NULL);
	record_start();
	flush_or_die();		/* readable now, whatever ends rec */
	syscall_entry();	/* the execve */
	for (;;) {
		if (!run_tid) {
			schedule();
			set_want();	/* it no longer waits itself */
		}
		int st;
		pid_t pid = wait_any(-1, &st, 0);
		if (!pid)
			continue;	/* one in a group-stop got SIGCONT */
		cur = find_task(pid);
		if (!cur) {
			/* A new thread's first stop, before its parent's
			 * clone event. */
			cur = add_task(pid, pid);
		}
		int was_running = cur->state == T_RUN;
		handle(st);
		if (was_running && find_task(pid) == cur && cur->state == T_KERNEL)
			await_quick_return();
		set_want();
	}
}
