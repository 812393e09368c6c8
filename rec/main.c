/* main.c: rec's options, its own signals, and the main loop that waits
 * for the threads' stops (see rec(1)). */
#include "bufabi.h"
#include "bufdrain.h"
#include "calls.h"
#include "count.h"
#include "events.h"
#include "outs.h"
#include "pin.h"
#include "probe.h"
#include "rec.h"
#include "schedule.h"
#include "stop.h"
#include "task.h"
#include "tracedir.h"
#include "trapact.h"
#include "tsc.h"
#include "tscshare.h"
#include "tty.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Whether signal info si is of a signal a thread rec traces sent (kill,
 * tgkill, sigqueue): the program signalling its parent, which is rec
 * only because of rec. Async-signal-safe (no stdio: it runs in rec's
 * handlers): reads /proc, not R.tasks. */
static int from_program(const siginfo_t *si)
{
	if (si->si_code > 0 || si->si_code == SI_KERNEL || si->si_pid <= 0)
		return 0;
	char buf[1024];
	if (pt_proc_read(si->si_pid, "status", buf, sizeof buf) <= 0)
		return 0;
	const char *t = strstr(buf, "\nTracerPid:");
	if (!t)
		return 0;
	long pid = 0;
	for (t += 11; *t == ' ' || *t == '\t'; t++)
		;
	for (; *t >= '0' && *t <= '9'; t++)
		pid = pid * 10 + (*t - '0');
	return pid == getpid();
}

/* Signal sig sent to the program's group (or its first process, if the
 * group is gone); 0 before the program has started. Async-signal-safe. */
static int pass_on(int sig)
{
	if (R.pgid <= 0 || R.root <= 0)
		return 0;
	if (kill(-R.pgid, sig) < 0)
		kill(R.root, sig);
	return 1;
}

/* SIGINT or SIGQUIT sent to rec (or to its process group, as by a
 * script): passed on to the program's group, which it would have reached
 * without rec. A terminal's ^C reaches the program's group directly. One
 * the program sent its parent (rec) goes no further: without rec it went
 * to a shell, which lives on. */
static void on_intr(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!from_program(si))
		pass_on(sig);
}

/* SIGTERM or SIGHUP (timeout(1), kill, a shell that hangs up): passed
 * on to the program's group, which would have got it without rec, and
 * the recording goes on to the program's end. If the program has not
 * ended within TERM_GRACE_TICKS, or another comes a second or more
 * later, rec keeps what was recorded and ends the program (timeout(1)
 * sends two at once: to rec, then to its own group). One the program
 * sent goes no further (see on_intr). */
static void on_term(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (from_program(si))
		return;
	if (!R.term_passed && pass_on(sig))
		R.term_passed = sig;
	else if (!R.term_passed || R.term_grace >= TERM_AGAIN_TICKS)
		R.term_sig = sig;
}

static const char usage_line[] =
	"usage: rec [-o DIR] [--chaos[=SEED]] [--keep-failed] [--] PROG [ARGS...] | rec --probe\n";
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
	"  --keep-failed     remove the trace when PROG exits 0 (and rec did not\n"
	"                    fail); keep it otherwise: for CI, a trace per failure\n"
	"  --probe           print which machine features rec can use (rdtsc trap,\n"
	"                    debug registers, perf breakpoints...) and exit\n"
	"  --                end of options: what follows is PROG, even \"-x\"\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"Traces go to ${REWIND_DIR:-$HOME/.local/share/rewind}. See rec(1).\n";

/* In the program's first process, just before its execve. */
static int before_exec(void)
{
	pin_self();
	return tsc_arm();
}

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
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

/* rec's own signals: SIGINT and SIGQUIT passed on, SIGTERM and SIGHUP
 * passed on and then ending the recording, SIGALRM the schedule's tick. */
static void own_signals(void)
{
	/* What rec was started with ignored and blocked stays so for the
	 * program (which still gets SIGINT and SIGQUIT passed on: it may
	 * catch them), and SIGHUP ignored for rec too (nohup). */
	pt_note_start_signals(&R.sig_ign, &R.sig_mask);
	const sigset_t *ign = pt_note_ignored();
	struct sigaction sa = { .sa_sigaction = on_intr, .sa_flags = SA_SIGINFO };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_sigaction = on_term;
	sigaction(SIGTERM, &sa, NULL);
	if (!sigismember(ign, SIGHUP))
		sigaction(SIGHUP, &sa, NULL);
	sa = (struct sigaction){ .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
}

/* rec's options (argv up to PROG) into R, *outdir and *keep. */
static void parse_options(int argc, char **argv, const char **outdir, int *keep)
{
	static const struct option lo[] = { { "help", no_argument, 0, 'h' },
					    { "chaos", optional_argument, 0, 'c' },
					    { "probe", no_argument, 0, 'p' },
					    { "keep-failed", no_argument, 0, 'k' },
					    { 0, 0, 0, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "+o:h", lo, NULL)) != -1) {
		if (c == 'o') {
			*outdir = optarg;
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
		} else if (c == 'k') {
			*keep = 1;
		} else if (c == 'p') {
			probe_print(stdout);
			buf_probe_print(stdout);
			exit(0);
		} else if (c == 'h') {
			usage(0);
		} else {
			usage(EXIT_USAGE);
		}
	}
}

int main(int argc, char **argv)
{
	progname = "rec";
	R.on_stop = handle;	/* for the files below stop.c (handle_other) */
	const char *outdir = NULL;
	int keep = 0;
	parse_options(argc, argv, &outdir, &keep);
	if (optind >= argc)
		usage(EXIT_USAGE);
	const char *prog = find_prog(argv[optind]);
	if (!prog)
		die(127, "%s: command not found", argv[optind]);
	if (access(prog, X_OK) < 0)
		die(errno == ENOENT ? 127 : 126, "%s: %s", prog, strerror(errno));
	/* access() passes a directory, which execve then refuses: say so
	 * before a trace directory is made for it. */
	struct stat st;
	if (stat(prog, &st) == 0 && !S_ISREG(st.st_mode))
		die(126, "%s: %s", prog, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	if (keep)
		keep_failed(&R, outdir != NULL);
	int level;
	trace_level_env(&level);	/* a bad REWIND_TRACE_LEVEL ends rec here */
	R.count = count_choose(-1, 0, NULL);
	R.clone_gives_way = env_flag("REWIND_CLONE_GIVES_WAY");
	stop_in_call_setup();	/* a bad REWIND_STOP_IN_CALL too */
	tsc_want_cpuid(R.count || env_flag("REWIND_CPUID_FAULT"));
	pin_choose(-1);
	R.tsc_way = tsc_choose(-1);	/* the cpu file (make_dir) follows it */
	make_dir(&R, outdir, argv[optind]);
	fprintf(stderr, "rec: recording to %s\n", R.dir);
	if (R.chaos) {
		fprintf(stderr, "rec: chaos seed %llu\n", (unsigned long long)R.seed);
		R.rng = R.seed * 0x9e3779b97f4a7c15ull + 1;
	}

	outs_init();
	own_signals();
	struct task *root = add_task(0, 0);
	trapact_start(root, R.sig_ign);
	/* The no_new_privs the program has without rec (rec sets it for its
	 * filter, and shows the program its own). */
	root->own.nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
	/* The filter lets calls at the library's syscall instruction
	 * through even without the library: dirty.c injects some there. */
	pt_untraced_ip = BUF_UNTRACED_IP;
	pt_regs_cache = 1;	/* every stop comes through wait_any (tasks.c) */
	/* The program leads a process group when rec does (a shell's job);
	 * else, as in a script, it leads none and may call setsid(), in a
	 * group that holds neither rec nor the script. */
	if (getpgrp() != getpid() && (pt_spawn_pgid = pt_group_holder()) < 0)
		die(EXIT_TRACE, "cannot make a process group for the program: %s", strerror(errno));
	pt_spawn(&root->p, prog, argv + optind, buf_setup(environ), NULL, before_exec);
	root->tgid = R.root = root->p.pid;
	R.pgid = pt_spawn_pgid ? pt_spawn_pgid : root->p.pid;
	tty_give(R.pgid);
	root->fresh = 0;
	root->state = T_RUN;
	root->run_t0 = clock_ns(CLOCK_MONOTONIC);
	cur = root;
	struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };
	setitimer(ITIMER_REAL, &it, NULL);
	record_start();
	flush_or_die();		/* readable now, whatever ends rec */
	pin_self();		/* after the flush: its helper thread runs anywhere */
	tsc_share(tsc_traps());	/* after it too: it does not trap rdtsc */
	syscall_entry();	/* the execve */
	for (;;) {
		int st;
		pid_t pid = 0;
		if (!R.run_tid && !(pid = woken_stop(&st))) {
			schedule();
			set_want();	/* it no longer waits itself */
		}
		if (!pid)
			pid = wait_any(-1, &st, 0);
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
