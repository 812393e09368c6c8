/* rec: runs a program under ptrace and a seccomp filter and writes every
 * source of nondeterminism it meets into a trace directory (see
 * rec(1) and rewind-trace(5)). */
#include "bufabi.h"
#include "bufdrain.h"
#include "cap.h"
#include "cpu.h"
#include "dirty.h"
#include "emu.h"
#include "outs.h"
#include "pos.h"
#include "probe.h"
#include "pt.h"
#include "sys.h"
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
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
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

/* A thread of the recorded tree. One runs user code at a time; any
 * number may be inside syscalls. */
struct task {
	struct pt_proc p;	/* p.pid is the thread id */
	pid_t tgid;
	int state;		/* T_* */
	int sig;		/* signal to deliver when resumed */
	int fresh;		/* its first stop (SIGSTOP) is still to come */
	int stopping;		/* we sent it SIGSTOP to preempt it */
	/* The syscall it is in (T_KERNEL). */
	long nr;
	uint64_t a[6];
	struct trace_writer stage;	/* the call's entry record, built
					   before it is known whether other
					   records come before its end */
	int open;		/* the entry is not written yet */
	uint64_t seq;		/* entry order among open ones */
	int at_exit;		/* the last stop was a syscall exit */
	struct user_regs_struct exit_regs;
	siginfo_t stash[64];	/* async signals held for a syscall boundary */
	int nstash;
	int injected;		/* signal number raised at the last entry */
	int out;		/* the call sends data to stdout or stderr */
	struct user_regs_struct entry_regs;	/* at the entry of that call */
	/* ptrace emulated for a tracer inside the tree (see ptrace_emu). */
	struct task *tracer;	/* the task that attached to this one */
	int pstop;		/* stopped for its tracer: not scheduled */
	int seized;		/* attached with PTRACE_SEIZE */
	int report;		/* wait status its tracer's wait4 gets next */
	uint64_t emu_out[2][2];	/* memory an emulated call wrote: address, length */
	int nemu_out;
	pid_t exec_tid;		/* its id before its execve made it the leader */
	pid_t child;		/* the thread its clone-like call made, as rec sees it */
	struct task *parent;	/* the thread that made it (its real parent) */
	int psig, pflags;	/* stopped for its tracer at the delivery of psig */
	siginfo_t psi;
	int pwait;		/* parked at a wait4 for a stop of a tracee */
	int kicked;		/* its wait4 in the kernel was interrupted for one */
	int dirty;		/* its tracer changed its registers or memory */
	uint64_t since;		/* when it became ready (in a count of such) */
	/* What the program set of what rewind sets for itself (rdtsc
	 * trapping, no_new_privs, a seccomp filter), for the calls that
	 * read them back; inherited by the threads and processes it makes. */
	struct { int tsc, nnp, seccomp; } own;
	uint64_t vdso_slot, vdso;	/* the hidden auxv entry, the vDSO */
};
enum { T_NEW, T_READY, T_RUN, T_KERNEL, T_STOPPED /* in a group-stop, until SIGCONT */ };

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

/* The task whose stop is being handled. */
static struct task *cur;

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
static int ticks_to_flush;

static volatile sig_atomic_t flush_due, term_sig;
/* Ticks since SIGTERM while rec was too busy to take it (hashing or
 * copying a huge file): after TERM_TICKS it leaves at once, the trace
 * ending at its last flush, the program killed (PTRACE_O_EXITKILL). */
#define TERM_TICKS (1000000 / TICK_US)
static volatile int term_ticks;
static char term_msg[] = "rec: killed by signal NN; the trace ends early\n";

/* Every tick: flush once a second, and stop a thread that has run its
 * timeslice without a syscall while another waits. */
static void on_alarm(int sig)
{
	(void)sig;
	if (term_sig && ++term_ticks >= TERM_TICKS) {
		term_msg[22] = '0' + term_sig / 10 % 10;
		term_msg[23] = '0' + term_sig % 10;
		(void)!write(2, term_msg, sizeof term_msg - 1);
		_exit(128 + term_sig);
	}
	if (++ticks_to_flush >= 1000000 / TICK_US) {
		ticks_to_flush = 0;
		flush_due = 1;
	}
	if (!run_tid)
		return;
	run_ticks++;
	if (want_ticks && preempting != run_tid && ++seg_ticks >= want_ticks) {
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
	char path[64], line[256];
	unsigned flags = 0;
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", cur->p.pid, fd);
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

	char mpath[64], line[4500];
	uint64_t stack_top = 0;
	int have_interp = 0;
	snprintf(mpath, sizeof mpath, "/proc/%d/maps", cur->p.pid);
	FILE *f = fopen(mpath, "re");
	if (!f)
		die(EXIT_TRACE, "%s: %s", mpath, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi, off;
		int pos = 0;
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &off, &pos) < 3 || !pos)
			continue;
		char *name = line + pos;
		name[strcspn(name, "\n")] = 0;
		if (!strcmp(name, "[stack]"))
			stack_top = hi;
		else if (name[0] == '/' && strcmp(name, path) && !have_interp) {
			store_file(interp_src(lo, hi, off, name), name, IF_INTERP, 0, 0);
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
	char path[64], line[512];
	uint64_t lo = 0, hi = 0, slot = cur->vdso_slot, val[2] = { AT_SYSINFO_EHDR, cur->vdso };
	cur->vdso_slot = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", cur->p.pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2)
			break;
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
	char path[64], line[4500];
	snprintf(path, sizeof path, "/proc/%d/maps", cur->p.pid);
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

/* 1 or 2 when the program's fd is rec's stdout or stderr, else 0. */
static int out_kind(uint64_t fd)
{
	return outs_kind(cur->p.pid, fd);
}

/* Where the ret bytes a copying call (sendfile, copy_file_range) took
 * from a regular file began: *offp after the call, or the file position,
 * minus ret. Returns -1 if the source cannot be read again. */
static int64_t copied_from(uint64_t fd, uint64_t offp, int64_t ret)
{
	char path[64], line[256];
	int64_t pos = -1;
	if (offp) {
		if (pt_read(&cur->p, offp, &pos, 8) != 8)
			return -1;
		return pos - ret;
	}
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", cur->p.pid, (int)fd);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "pos: %" SCNd64, &pos) == 1)
			break;
	if (f)
		fclose(f);
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
	if (nr == SYS_splice)
		return 2;
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

/* t may run user code again; threads run in the order they got ready. */
static void ready(struct task *t)
{
	static uint64_t n;
	t->state = T_READY;
	t->since = ++n;
}

static struct task *find_task(pid_t tid)
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

static void record_dirty(struct task *t);

static void drop_task(struct task *t)
{
	for (int i = 0; i < R.ntasks; i++) {
		if (R.tasks[i]->parent == t)
			R.tasks[i]->parent = NULL;
		if (R.tasks[i]->tracer == t) {	/* its tracees go on */
			record_dirty(R.tasks[i]);
			R.tasks[i]->tracer = NULL;
			R.tasks[i]->pstop = R.tasks[i]->report = R.tasks[i]->seized = 0;
			if (R.tasks[i]->psig && R.tasks[i]->state == T_READY)
				R.tasks[i]->sig = R.tasks[i]->psig;	/* delivered after all */
			R.tasks[i]->psig = 0;
		}
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
		char path[64], line[256];
		unsigned long long pend = 0, mask = 1ull << (SIGCONT - 1);
		if (t->state != T_STOPPED)
			continue;
		snprintf(path, sizeof path, "/proc/%d/status", t->p.pid);
		FILE *f = fopen(path, "re");
		while (f && fgets(line, sizeof line, f)) {
			unsigned long long v;
			if ((sscanf(line, "SigPnd: %llx", &v) == 1 || sscanf(line, "ShdPnd: %llx", &v) == 1))
				pend |= v;
		}
		if (f)
			fclose(f);
		if (!f || (pend & mask)) {
			ready(t);
			any = 1;
		}
	}
	return any;
}

/* Wait for the next stop of any task (or of tid, when not -1; with
 * nohang, 0 if there is none yet; from any task, 0 too when one in a
 * group-stop may run again). Flushes and takes SIGTERM between. */
static pid_t wait_any(pid_t tid, int *st, int nohang)
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

static void handle(int st);

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

/* The id thread tid (as rec sees it) sees for itself: the last one on
 * the NSpid line of its status, or ret where that cannot be read. */
static uint32_t self_id(uint32_t tid, int64_t ret)
{
	char path[64], line[256];
	uint32_t id = ret;
	snprintf(path, sizeof path, "/proc/%u/status", tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "NSpid:", 6)) {
			char *s = line + 6, *end;
			for (long v; (v = strtol(s, &end, 10)), end != s; s = end)
				id = v;
			break;
		}
	if (f)
		fclose(f);
	return id;
}

static int wait_emu(const uint64_t a[6], int64_t *ret);

/* The end of the syscall cur is in: its result and outputs, as the rest
 * of its record (nothing came between) or as a TR_SYSRET. */
static void syscall_exit(void)
{
	struct user_regs_struct regs;
	pt_getregs(&cur->p, &regs);
	const struct sys_entry *e = sys_row(cur->nr);
	long nr = cur->nr;
	uint64_t *a = cur->a;
	int64_t ret = regs.rax;
	if (cur->kicked) {
		cur->kicked = 0;
		if (cap_is_restart(ret) && nr == SYS_wait4 && wait_emu(a, &ret) == 1) {
			regs.rax = ret;
			pt_setregs(&cur->p, &regs);
		}
	}
	const char *why = cap_unknown(e, a, ret);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s (%s), whose outputs rewind cannot "
			       "record yet; the trace %s ends before it", e->name, why, R.dir);
	if (nr == SYS_prctl || nr == SYS_seccomp)
		ret = own_settings(&regs);
	if ((clone_flags(cur) & CLONE_VFORK) && e->class == C_CLONE)
		vfork_child_exec();
	/* A whole call goes where it began; an end goes after every call
	 * that began before it. */
	flush_entries(cur->open ? cur->seq : UINT64_MAX);
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
	if (e->class == C_EXECVE && ret == 0)
		record_exec(&regs);
	if (e->class == C_MMAP && ret >= 0 && !(a[3] & MAP_ANONYMOUS)) {
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
	char fdpath[64];
	snprintf(fdpath, sizeof fdpath, "/proc/%d/fd/%d", cur->p.pid, (int)a[4]);
	tsc_syscall(&cur->p, cur->tgid, nr, a, ret, fdpath);
	buf_after(&cur->p, nr, a, ret);
	tw_end(&R.w);
	ready(cur);
	cur->at_exit = 1;
	cur->exit_regs = regs;
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

/* ptrace for tracers inside the recorded tree. rec is the real tracer of
 * every thread, so a program's own ptrace is answered here and never
 * reaches the kernel: an attached thread (a tracee) is "stopped" by not
 * being scheduled, and the tracer reads its state through rec. The
 * answers and what they wrote are recorded like any call's, so replay
 * gives them back without a tracer of its own. The subset: what
 * LeakSanitizer's StopTheWorld uses (ATTACH, SEIZE, INTERRUPT, GETREGS,
 * GETFPREGS, GETREGSET, PEEK*, DETACH and wait4 for the stops), and a
 * child's TRACEME with its signal stops, CONT, KILL, POKE* and SETREGS
 * (the changes recorded as the tracee's state); the rest is refused by
 * name. */

static void record_signal(int sig, int flags, const siginfo_t *si);
static void record_state(struct user_regs_struct *regs);

/* What t's tracer changed in it, recorded as its state before it runs
 * again, so that replay makes the same changes. */
static void record_dirty(struct task *t)
{
	if (!t->dirty)
		return;
	struct task *me = cur;
	struct user_regs_struct regs;
	cur = t;
	pt_getregs(&t->p, &regs);
	record_state(&regs);
	cur = me;
	t->dirty = 0;
}

static const char *ptrace_name(uint64_t req)
{
	static const struct { uint64_t req; const char *name; } names[] = {
		{ PTRACE_TRACEME, "TRACEME" }, { PTRACE_PEEKTEXT, "PEEKTEXT" },
		{ PTRACE_PEEKDATA, "PEEKDATA" }, { PTRACE_PEEKUSER, "PEEKUSER" },
		{ PTRACE_POKETEXT, "POKETEXT" }, { PTRACE_POKEDATA, "POKEDATA" },
		{ PTRACE_POKEUSER, "POKEUSER" }, { PTRACE_CONT, "CONT" }, { PTRACE_KILL, "KILL" },
		{ PTRACE_SINGLESTEP, "SINGLESTEP" }, { PTRACE_GETREGS, "GETREGS" },
		{ PTRACE_SETREGS, "SETREGS" }, { PTRACE_GETFPREGS, "GETFPREGS" },
		{ PTRACE_SETFPREGS, "SETFPREGS" }, { PTRACE_ATTACH, "ATTACH" },
		{ PTRACE_DETACH, "DETACH" }, { PTRACE_SYSCALL, "SYSCALL" },
		{ PTRACE_SETOPTIONS, "SETOPTIONS" }, { PTRACE_GETEVENTMSG, "GETEVENTMSG" },
		{ PTRACE_GETSIGINFO, "GETSIGINFO" }, { PTRACE_SETSIGINFO, "SETSIGINFO" },
		{ PTRACE_GETREGSET, "GETREGSET" }, { PTRACE_SETREGSET, "SETREGSET" },
		{ PTRACE_SEIZE, "SEIZE" }, { PTRACE_INTERRUPT, "INTERRUPT" },
		{ PTRACE_LISTEN, "LISTEN" }, { PTRACE_PEEKSIGINFO, "PEEKSIGINFO" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (names[i].req == req)
			return names[i].name;
	return NULL;
}

static void __attribute__((noreturn)) ptrace_refuse(uint64_t req, const char *why)
{
	const char *n = ptrace_name(req);
	char num[32];
	snprintf(num, sizeof num, "%llu", (unsigned long long)req);
	stop_recording(EXIT_TRACE, "the program made syscall ptrace (%d) with %s%s%s, which rewind "
		       "cannot record yet; the trace %s ends before it", SYS_ptrace, n ? "PTRACE_" : "request ",
		       n ? n : num, why, R.dir);
}

/* Write an emulated call's output into cur's memory, to be recorded at
 * the call's end. Returns 0, or -EFAULT. */
static int emu_put(uint64_t addr, const void *data, size_t len)
{
	if (cur->nemu_out == 2 || pt_write(&cur->p, addr, data, len) < 0)
		return -EFAULT;
	cur->emu_out[cur->nemu_out][0] = addr;
	cur->emu_out[cur->nemu_out++][1] = len;
	return 0;
}

/* A thread being attached may be inside a call that ends at once (a
 * sched_yield): let it end, so that its tracer sees it between calls,
 * as the SIGSTOP of a real attach would. One that blocks stays inside. */
static void settle(struct task *t)
{
	struct task *me = cur;
	pid_t tid = t->p.pid;
	for (int i = 0; i < 40 && find_task(tid) == t && (t->state == T_KERNEL || t->state == T_NEW);
	     i++) {
		int st;
		if (wait_any(tid, &st, 1) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
	}
	cur = me;
}

/* The registers a tracer reads from t: those of its stop, or for a
 * thread blocked in a call, those of the call's entry as an interrupted
 * call shows them (-ERESTARTSYS in rax). */
static void tracee_regs(struct task *t, struct user_regs_struct *r)
{
	if (t->state == T_KERNEL) {
		*r = t->entry_regs;
		r->rax = -512;
	} else {
		pt_getregs(&t->p, r);
	}
}

static int64_t ptrace_getregset(struct task *t, uint64_t type, uint64_t iovp)
{
	uint64_t iov[2];
	if (pt_read(&cur->p, iovp, iov, sizeof iov) != sizeof iov)
		return -EFAULT;
	static uint8_t buf[65536];
	size_t len = iov[1] < sizeof buf ? iov[1] : sizeof buf;
	if (type == NT_PRSTATUS) {
		struct user_regs_struct r;
		tracee_regs(t, &r);
		len = len < sizeof r ? len : sizeof r;
		memcpy(buf, &r, len);
	} else {
		/* The FP state of a thread blocked in a call cannot be read
		 * without stopping it for real. */
		struct iovec kiov = { buf, len };
		if (t->state == T_KERNEL)
			return -EIO;
		if (ptrace(PTRACE_GETREGSET, t->p.pid, type, &kiov) < 0)
			return -errno;
		len = kiov.iov_len;
	}
	iov[1] = len;
	if (emu_put(iov[0], buf, len) < 0 || emu_put(iovp + 8, &iov[1], 8) < 0)
		return -EFAULT;
	return 0;
}

/* Answer cur's ptrace call (arguments a) without the kernel; returns
 * its result. Refuses what it does not emulate. */
static int64_t ptrace_emu(const uint64_t a[6])
{
	uint64_t req = a[0], addr = a[2], data = a[3];
	struct task *t = (int64_t)a[1] > 0 && a[1] <= INT32_MAX ? find_task(a[1]) : NULL;
	if (req == PTRACE_ATTACH || req == PTRACE_SEIZE) {
		if (!t && kill(a[1], 0) < 0 && errno == ESRCH)
			return -ESRCH;
		if (!t)
			ptrace_refuse(req, " of a process outside the recorded tree");
		if (t->tgid == cur->tgid || t->tracer)
			return -EPERM;
		if (req == PTRACE_SEIZE && data)
			ptrace_refuse(req, " with options");
		settle(t);
		if (find_task(a[1]) != t)
			return -ESRCH;
		t->tracer = cur;
		t->seized = req == PTRACE_SEIZE;
		t->pstop = !t->seized;
		t->report = t->pstop ? 0x137f : 0;	/* stopped by SIGSTOP */
		return 0;
	}
	if (req == PTRACE_TRACEME) {
		if (cur->tracer)
			return -EPERM;
		if (!cur->parent)
			ptrace_refuse(req, " with its parent outside the recorded tree");
		cur->tracer = cur->parent;
		cur->seized = cur->pstop = cur->report = cur->psig = 0;
		return 0;
	}
	if (!ptrace_name(req))
		ptrace_refuse(req, "");
	if (!t || t->tracer != cur)
		return -ESRCH;
	if (req == PTRACE_INTERRUPT) {
		if (!t->seized)
			return -EIO;
		settle(t);
		if (find_task(a[1]) != t)
			return -ESRCH;
		if (!t->pstop)	/* a PTRACE_EVENT_STOP stop */
			t->report = ((PTRACE_EVENT_STOP << 8 | SIGTRAP) << 8) | 0x7f;
		t->pstop = 1;
		return 0;
	}
	if (!t->pstop)
		return -ESRCH;
	struct user_regs_struct r;
	switch (req) {
	case PTRACE_CONT:
	case PTRACE_DETACH:
		if (data && data != (uint64_t)t->psig)
			ptrace_refuse(req, t->psig ? " with another signal than the one it stopped for"
						  : " with a signal");
		record_dirty(t);
		if (data) {
			/* Delivered now: recorded where replay raises it. */
			struct task *me = cur;
			cur = t;
			record_signal(data, t->pflags, &t->psi);
			cur = me;
			t->sig = data;
		}
		t->pstop = t->report = t->psig = 0;
		if (req == PTRACE_DETACH)
			t->tracer = NULL, t->seized = 0;
		return 0;
	case PTRACE_KILL:
		syscall(SYS_tkill, t->p.pid, SIGKILL);	/* stays unscheduled till it ends */
		return 0;
	case PTRACE_GETREGS:
		tracee_regs(t, &r);
		return emu_put(data, &r, sizeof r);
	case PTRACE_GETFPREGS: {
		struct user_fpregs_struct fp;
		if (t->state == T_KERNEL)
			return -EIO;
		if (ptrace(PTRACE_GETFPREGS, t->p.pid, 0, &fp) < 0)
			return -errno;
		return emu_put(data, &fp, sizeof fp);
	}
	case PTRACE_GETREGSET:
		return ptrace_getregset(t, addr, data);
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA: {
		uint64_t w;
		if (pt_read(&t->p, addr, &w, 8) != 8)
			return -EIO;
		return emu_put(data, &w, 8);
	}
	case PTRACE_PEEKUSER:
		if (addr % 8 || addr >= sizeof r)
			ptrace_refuse(req, " beyond the general registers");
		tracee_regs(t, &r);
		return emu_put(data, (uint8_t *)&r + addr, 8);
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
	case PTRACE_POKEUSER:
	case PTRACE_SETREGS:
		/* Made on the thread at its stop now, and recorded as its
		 * state when it goes on (record_dirty). */
		if (t->state != T_READY)
			ptrace_refuse(req, " of a thread blocked in a call");
		if (req == PTRACE_POKEUSER && (addr % 8 || addr >= sizeof r))
			ptrace_refuse(req, " beyond the general registers");
		t->dirty = 1;
		if (req == PTRACE_POKETEXT || req == PTRACE_POKEDATA)
			return pt_write(&t->p, addr, &data, 8) < 0 ? -EIO : 0;
		pt_getregs(&t->p, &r);
		if (req == PTRACE_POKEUSER)
			memcpy((uint8_t *)&r + addr, &data, 8);
		else if (pt_read(&cur->p, data, &r, sizeof r) != sizeof r)
			return -EFAULT;
		pt_setregs(&t->p, &r);
		return 0;
	}
	ptrace_refuse(req, "");
}

/* Whether cur's wait4 (arguments a) is for a stop of a thread it traces
 * here; if so *ret is the call's result. */
static int wait_emu(const uint64_t a[6], int64_t *ret)
{
	int pid = a[0];
	struct task *t = NULL, *mine = NULL;
	for (int i = 0; i < R.ntasks && !t; i++) {
		struct task *c = R.tasks[i];
		if (c->tracer != cur || (pid != -1 && pid != c->p.pid))
			continue;
		mine = c;
		if (c->report)
			t = c;
	}
	if (!mine)
		return 0;	/* a child of its own: the kernel answers */
	if (!t && !(a[2] & WNOHANG))
		return 2;	/* parked until a tracee stops or ends */
	if (a[3])
		stop_recording(EXIT_TRACE, "the program waits for a thread it traces with wait4 and "
			       "asks for its rusage, which rewind cannot record yet; the trace %s "
			       "ends before it", R.dir);
	if (!t) {
		*ret = 0;
		return 1;
	}
	if (a[1] && emu_put(a[1], &t->report, 4) < 0) {
		*ret = -EFAULT;
		return 1;
	}
	if (!(a[2] & WNOWAIT))
		t->report = 0;
	*ret = t->p.pid;
	return 1;
}

/* cur is at the entry of ptrace, or of a wait4 for a thread it traces:
 * answer it here and let the kernel skip it. Returns 1 if so, 2 if the
 * wait4 must wait for a tracee (the call stays parked at its entry). */
static int emulate(struct user_regs_struct *regs)
{
	int64_t ret;
	int how = 1;
	cur->nemu_out = 0;
	if (regs->orig_rax == SYS_waitid)
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i]->tracer == cur)
				stop_recording(EXIT_TRACE, "the program waits with waitid for a thread it "
					       "traces, which rewind cannot record yet; the trace %s "
					       "ends before it", R.dir);
	if (regs->orig_rax == SYS_ptrace)
		ret = ptrace_emu(cur->a);
	else if (regs->orig_rax != SYS_wait4 || !(how = wait_emu(cur->a, &ret)))
		return 0;
	if (how == 2)
		return 2;
	regs->orig_rax = -1;
	regs->rax = ret;
	pt_setregs(&cur->p, regs);
	return 1;
}

/* A tracee of tr stopped (or ended: gone): a wait4 of tr parked for it
 * ends now, answered here, or for an end by the kernel (the tracee is
 * its child). */
static void wake_tracer(struct task *tr, int gone)
{
	if (!tr || !tr->pwait)
		return;
	struct task *me = cur;
	struct user_regs_struct regs;
	int64_t ret;
	cur = tr;
	if (gone) {
		tr->pwait = 0;
		pt_resume(&tr->p, RESUME_SYSCALL, 0);
	} else if (wait_emu(tr->a, &ret) == 1) {
		pt_getregs(&tr->p, &regs);
		regs.orig_rax = -1;
		regs.rax = ret;
		pt_setregs(&tr->p, &regs);
		tr->pwait = 0;
		pt_resume(&tr->p, RESUME_SYSCALL, 0);
	}
	cur = me;
}

/* cur stopped at a syscall entry: its run of user code ends. Stage the
 * record, and let the kernel run the call while another thread runs. */
static void syscall_entry(void)
{
	struct user_regs_struct regs;
	pt_getregs(&cur->p, &regs);
	long nr = (int32_t)regs.orig_rax;	/* all the kernel reads of it */
	const struct sys_entry *e = sys_row(nr);
	if (e->class == C_UNSUP)
		stop_recording(EXIT_TRACE, "the program made syscall %s (%ld), which rewind "
			       "cannot record yet; the trace %s ends before it", e->name, nr, R.dir);
	const char *why = refusal(nr, &regs);
	if (why)
		stop_recording(EXIT_TRACE, "the program made %s, which rewind cannot record yet; "
			       "the trace %s ends before it", why, R.dir);
	if (!sys_lookup(nr)) {
		/* No such call (or x32's): ENOSYS, as from a kernel without it. */
		regs.orig_rax = -1;
		regs.rax = -ENOSYS;
		pt_setregs(&cur->p, &regs);
	}
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
	struct trace_writer *s = &cur->stage;
	s->len = 0;
	tw_put32(s, (uint32_t)nr);
	tw_put32(s, 0);
	tw_put(s, cur->a, sizeof cur->a);
	tw_put64(s, 0);		/* ret, filled in at the end */
	cap_inputs(&cur->p, e, cur->a, item_arg, s);
	cur->at_exit = 0;
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
	int parked = emulate(&regs) == 2;
	if (e->class == C_EXIT) {
		cur->out = 0;	/* a write before it is over */
		begin(TR_SYSCALL, TRF_NORETURN);
		tw_put(&R.w, s->buf, s->len);
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

static void record_signal(int sig, int flags, const siginfo_t *si)
{
	begin(TR_SIGNAL, 0);
	tw_put32(&R.w, sig);
	tw_put32(&R.w, flags);
	tw_put(&R.w, si, 128);
	tw_end(&R.w);
}

/* Record cur's state as a TR_PREEMPT (registers, FP/vector state, its
 * process's memory by blocks): replay makes the state so there. */
static void record_state(struct user_regs_struct *regs)
{
	static struct pos_store written;	/* blocks already in the trace */
	static struct pos_shadow last;		/* each block as last recorded */
	static uint8_t xor[POS_BLOCK];
	static uint8_t xs[65536];
	struct pos ps;
	ssize_t xlen = pt_getxstate(&cur->p, xs, sizeof xs);
	int uffd = dirty_fd(cur->tgid);
	if (xlen < 0 || pos_take_since(&cur->p, uffd, &ps) < 0)
		stop_recording(EXIT_TRACE, "cannot read the state of thread %d: %s", cur->p.pid,
			       xlen < 0 ? "no FP/vector state" : errno == EFBIG ?
			       "its writable memory is too large to read without PAGEMAP_SCAN" :
			       strerror(errno));
	begin(TR_PREEMPT, 0);
	tw_put64(&R.w, regs->rip);
	tw_put64(&R.w, uffd >= 0 ? TRP_SINCE : 0);
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
}

/* cur was stopped by our SIGSTOP between syscalls: record its state
 * there, which replay makes again, then deliver what it held. */
static void preempted(struct user_regs_struct *regs)
{
	/* Its first preemption gives the process a userfaultfd (in a
	 * thread without a signal to deliver here: the calls injected for
	 * it end this signal-delivery-stop). */
	int moved = 0;
	if (!cur->nstash && !cur->tracer)
		moved = dirty_setup(&cur->p, cur->tgid, cur->stash, &cur->nstash, 64);
	record_state(regs);
	if (cur->nstash && moved) {
		buf_want_traced(&cur->p);	/* came meanwhile: held */
	} else if (cur->nstash) {
		/* Delivered here: replay raises it at the same place. */
		siginfo_t si = cur->stash[0];
		memmove(&cur->stash[0], &cur->stash[1], --cur->nstash * sizeof si);
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
	if (sig == SIGSTOP && si.si_code == SI_TKILL && si.si_pid == getpid()) {
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
		int i;
		for (i = 0; i < cur->nstash && cur->stash[i].si_signo != sig; i++)
			;
		if (!boundary) {
			/* Hold it for the next syscall, where replay can raise
			 * it; if none comes within a timeslice, the thread is
			 * stopped and it is delivered there. */
			if (i == cur->nstash && cur->nstash < 64)
				cur->stash[cur->nstash++] = si;
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
		/* A traced thread stops at a signal's delivery and its tracer
		 * decides; the signal is recorded when it is delivered. */
		cur->pstop = 1;
		cur->psig = sig;
		cur->pflags = flags;
		cur->psi = si;
		cur->report = sig << 8 | 0x7f;
		ready(cur);
		struct task *tr = cur->tracer;
		if (tr->pwait)
			wake_tracer(tr, 0);
		else if (tr->state == T_KERNEL && tr->nr == SYS_wait4 &&
			 ((int)tr->a[0] == -1 || (int)tr->a[0] == cur->p.pid)) {
			/* Inside the kernel's wait4 since before it traced:
			 * our SIGSTOP interrupts it, and its end becomes the
			 * stop's report (the SIGSTOP is rec's, never seen). */
			tr->kicked = 1;
			syscall(SYS_tkill, tr->p.pid, SIGSTOP);
		}
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
	int pick = R.chaos ? (int)(rnd() % n) : -1;
	struct task *t = NULL;
	for (int i = 0; i < R.ntasks; i++) {
		struct task *c = R.tasks[i];
		if (c->state == T_READY && !c->pstop &&
		    (pick < 0 ? !t || c->since < t->since : pick-- == 0))
			t = c;
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
	if (R.chaos)
		tw_item(&R.w, IT_CHAOS, 0, &R.seed, 8, NULL, 0);
	tw_end(&R.w);
}

/* A task ended (exited or killed). */
static void task_gone(int st)
{
	if (cur->tracer)
		wake_tracer(cur->tracer, 1);
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
	record_exit(TR_TASKEXIT, st);
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

/* Handle one stop of cur. */
static void handle(int st)
{
	int k = pt_classify(st);
	/* The calls it made without a stop come before this one. */
	if (cur->state == T_RUN && (k == PS_SECCOMP || k == PS_SIGNAL))
		buf_drain(&cur->p, cur->nstash, put_buffered, NULL);
	if (k == PS_EXITED) {
		task_gone(st);
		return;
	}
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
	for (int i = 0; (t->out || i < 40) && t->state == T_KERNEL; i++) {
		int st;
		/* Alone, it can only wait for the call's end. */
		if (wait_any(tid, &st, R.ntasks > 1 && !t->out) == 0) {
			sched_yield();
			continue;
		}
		cur = t;
		handle(st);
		if (!find_task(tid))
			return;
	}
	if (t->state != T_READY || (others_ready() && (nr == SYS_sched_yield ||
	    run_ticks >= slice_ticks || (R.chaos && rnd() % 2))))
		return;
	t->state = T_RUN;
	run_tid = tid;
	int sig = t->sig;
	t->sig = 0;
	pt_resume(&t->p, RESUME_CONT, sig);
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
		if (!run_tid)
			schedule();
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
		struct task *r = run_tid ? find_task(run_tid) : NULL;
		want_ticks = others_ready() ? slice_ticks : r && r->nstash ? HELD_TICKS : 0;
	}
}
