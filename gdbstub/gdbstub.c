/* gdbstub: serves a replay to gdb over the remote serial protocol, with
 * reverse execution and event numbers as monitor commands (gdbstub(1)). */
#include "count.h"
#include "cpu.h"
#include "divert.h"
#include "regs.h"
#include "rsp.h"
#include "timeline.h"
#include "tsc.h"
#include "tscshare.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static struct rsp conn;
static struct timeline T;
static uint64_t emitted;	/* output of events up to here was shown */
static int running;		/* gdb waits for a stop reply: O packets allowed */
static uint32_t gsel;		/* the thread gdb reads registers of (Hg) */
static uint32_t gstep;		/* the thread gdb resumes (Hc; 0: any) */
/* The thread an s or bs with Hc 0 or -1 steps: the one gdb last checked
 * with T (thread N does, and so does gdb before it steps a thread it
 * switched back to), else the one that stopped. Not Hg: info threads
 * reads every thread's registers. A stop after gdb stepped another thread
 * by name (over a breakpoint) leaves it: gdb then steps the user's. */
static uint32_t upick;
static uint64_t last_event;	/* the trace's last record (its exit) */
static struct divert D;		/* gdb's writes and calls (divert.h) */

static const char usage_line[] =
	"usage: gdbstub [-g EVENT] [-p PID] [--force] [--listen [HOST:]PORT | --gdb [-i INTERP]] [TRACE]\n";
static const char help[] =
	"Serve a replay of TRACE to gdb over the remote serial protocol, with\n"
	"reverse execution and watchpoints: gdb -ex 'target remote | gdbstub TRACE'.\n"
	"TRACE defaults to $REWIND_DIR/latest-trace.\n"
	"\n"
	"  -g EVENT          start just after event EVENT (tdump's numbers) instead\n"
	"                    of at the program's first instruction\n"
	"  -p PID            debug process PID of a recorded process tree (the id\n"
	"                    tdump shows) instead of the first process\n"
	"  --listen [HOST:]PORT\n"
	"                    wait for gdb on a TCP port (HOST 127.0.0.1 unless\n"
	"                    given; port 0 picks one) instead of stdin/stdout;\n"
	"                    no authentication: keep it on a private address\n"
	"  --gdb             run gdb itself, connected to this replay\n"
	"  -i, --interpreter=INTERP\n"
	"                    with --gdb: gdb's interpreter (mi for Emacs M-x gdb)\n"
	"  --force           replay on a CPU that lacks a feature the recording CPU\n"
	"                    had, or a trace without a cpu file (warn instead\n"
	"                    of refusing)\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"In gdb, \"monitor help\" lists the extra commands. See gdbstub(1).\n";

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
}

/* Linux signal numbers to gdb's own (the protocol speaks gdb's). */
static const unsigned char to_gdb[65] = {
	0, 1, 2, 3, 4, 5, 6, 10, 8, 9, 30, 11, 31, 13, 14, 15, 143, 20, 19, 17, 18, 21, 22, 16,
	24, 25, 26, 27, 28, 23, 32, 12, 77, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
	58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 78,
};

static int from_gdb(int g)
{
	for (int s = 1; s <= 64; s++)
		if (to_gdb[s] == g)
			return s;
	return 0;
}

/* The program's output, shown once however often the replay passes it. */
static void emit(void *ctx, uint64_t ev, uint32_t pid, int stream, const uint8_t *data,
		 size_t len)
{
	(void)ctx;
	(void)pid;
	if (ev <= emitted || (stream != 1 && stream != 2))
		return;
	emitted = ev;
	if (running)
		rsp_console(&conn, data, len);
	else
		write_all(2, data, len);
}

/* Only a continue can be interrupted by Ctrl-C; searches backwards run
 * to their end. */
static int interrupted(void *ctx)
{
	(void)ctx;
	return T.continuing && rsp_poll_interrupt(&conn);
}

static void tick(int sig)
{
	(void)sig;	/* only to make waitpid return EINTR */
}

/* A timer that wakes the wait for the tracee, to look for Ctrl-C. */
static void ticking(int on)
{
	struct itimerval it = { { 0, on ? 100000 : 0 }, { 0, on ? 100000 : 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

/* Threads are named by their recorded ids. A stop is about the thread
 * of the debugged process that ran last. */
static void stop_reply(const struct why *w)
{
	char buf[256];
	int sig = w->why == WHY_SIGNAL ? to_gdb[w->sig < 65 ? w->sig : 0] : w->why == WHY_INTR ? 2 : 5;
	uint32_t tid = w->tid ? w->tid : T.ran;
	gsel = tid;
	int n = snprintf(buf, sizeof buf, "T%02xthread:%x;", sig, tid);
	switch (w->why) {
	case WHY_BP:
		n += snprintf(buf + n, sizeof buf - n, "swbreak:;");
		break;
	case WHY_WATCH:
		n += snprintf(buf + n, sizeof buf - n, "%s:%llx;",
			      w->wtype == 2 ? "watch" : w->wtype == 3 ? "rwatch" : "awatch",
			      (unsigned long long)w->addr);
		break;
	case WHY_BEGIN:
		n += snprintf(buf + n, sizeof buf - n, "replaylog:begin;");
		break;
	case WHY_END:
		n += snprintf(buf + n, sizeof buf - n, "replaylog:end;");
		break;
	}
	rsp_send(&conn, buf, n);
}

static int poll_interrupt(void *ctx)
{
	(void)ctx;
	return rsp_poll_interrupt(&conn);
}

/* A resume during one of gdb's calls runs the diversion's copy. A system
 * call there ends it: one line says so, and the stop is a SIGSYS at the
 * replay's place, which is where gdb finds itself again. */
static void divert_move(int step)
{
	struct why w;
	char msg[300];
	uint32_t tid = D.tid;
	running = 1;
	ticking(1);
	int k = div_run(&D, &T, step, poll_interrupt, &w, msg, sizeof msg);
	ticking(0);
	if (k < 0) {
		rsp_console(&conn, msg, strlen(msg));
		memset(&w, 0, sizeof w);
		w.why = WHY_SIGNAL;
		w.sig = SIGSYS;
	}
	w.tid = tid;
	running = 0;
	stop_reply(&w);
}

/* Run one of the timeline's moves for a c, s, bc or bs packet. */
static void move(int (*fn)(struct timeline *, struct why *))
{
	struct why w;
	if (D.p.pid > 0 && D.calls > 0 && D.regs && (fn == tl_cont || fn == tl_step)) {
		divert_move(fn == tl_step);
		return;
	}
	/* Any other resume ends a diversion: the replay goes on from where
	 * it was, as recorded. */
	div_end(&D);
	running = 1;
	ticking(1);
	int over = gstep != 0;
	uint64_t from = T.here.ev;
	T.step_tid = fn == tl_step || fn == tl_rstep ? (gstep ? gstep : upick ? upick : T.ran) : 0;
	int k = fn(&T, &w);
	if (!over || (fn != tl_step && fn != tl_rstep))
		upick = T.ran;
	ticking(0);
	tl_flush(&T);
	tl_show(&T, fn == tl_cont ? "cont" : fn == tl_step ? "step" : fn == tl_rcont ? "rcont" : "rstep");
	if (k < 0) {
		char msg[600];
		int n = snprintf(msg, sizeof msg, "rewind: %s\n", T.msg);
		rsp_console(&conn, msg, n);
		w.why = WHY_STEP;
	}
	/* Say so when a continue passed stretches nothing could stop in. */
	char gap[600];
	int ng = fn == tl_cont || fn == tl_rcont ? tl_gaps(&T, from, T.here.ev, gap, sizeof gap) : 0;
	if (ng && (T.user.nbp || T.user.nwp))
		rsp_console(&conn, gap, ng);
	running = 0;
	w.tid = 0;
	stop_reply(&w);
}

static void monitor_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void monitor_out(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rsp_console(&conn, msg, n < (int)sizeof msg ? n : (int)sizeof msg - 1);
}

/* The number a monitor command takes (its second word), or -1 after
 * saying what is wrong with it. */
static long long monitor_num(const char *word, const char *arg, int n, const char *what)
{
	long long v = n >= 2 ? parse_num(arg) : -1;
	if (n < 2)
		monitor_out("rewind: monitor %s wants %s\n", word, what);
	else if (n > 2)
		monitor_out("rewind: monitor %s takes one argument, %s\n", word, what);
	else if (v < 0)
		monitor_out("rewind: monitor %s: '%s' is not %s\n", word, arg, what);
	return n == 2 ? v : -1;
}

static void monitor(const char *hex)
{
	char cmd[512];
	size_t n = strlen(hex) / 2;
	if (n >= sizeof cmd || rsp_unhex(cmd, hex, n) < 0) {
		rsp_send_str(&conn, "E01");
		return;
	}
	cmd[n] = 0;
	char word[32] = "", arg[64] = "", extra[8];
	int got = sscanf(cmd, "%31s %63s %7s", word, arg, extra);
	long long num;
	if (got >= 1 && !strcmp(word, "when")) {
		monitor_out("Current event: %llu\n", (unsigned long long)T.here.ev);
	} else if (got >= 1 && !strcmp(word, "goto")) {
		if ((num = monitor_num(word, arg, got, "an event number")) < 0) {
		} else if ((uint64_t)num > last_event) {
			monitor_out("rewind: the trace ends at event %llu; still at event %llu\n",
				    (unsigned long long)last_event, (unsigned long long)T.here.ev);
		} else {
			div_end(&D);
			running = 1;
			int k = tl_goto_event(&T, num);
			tl_flush(&T);
			if (k != 0)
				monitor_out("rewind: %s\n", T.msg);
			if (k >= 0)
				monitor_out("Current event: %llu\n", (unsigned long long)T.here.ev);
			running = 0;
		}
	} else if (got == 1 && !strcmp(word, "checkpoint")) {
		int id = tl_checkpoint(&T);
		if (id < 0)
			monitor_out("rewind: %s\n", T.msg);
		else
			monitor_out("Checkpoint %d at event %llu\n", id, (unsigned long long)T.here.ev);
	} else if (got >= 1 && !strcmp(word, "restart")) {
		if ((num = monitor_num(word, arg, got, "a checkpoint id")) < 0) {
		} else if (div_end(&D), num == 0 || num >= INT_MAX || tl_restart(&T, (int)num) < 0) {
			monitor_out("rewind: no checkpoint %lld (monitor checkpoint makes one)\n", num);
		} else {
			monitor_out("Current event: %llu\n", (unsigned long long)T.here.ev);
		}
	} else if (got >= 1 && !strcmp(word, "stats")) {
		monitor_out("checkpoints %d (%ld KiB), single steps %ld, stops %ld; %s\n", T.nmarks,
			    tl_mark_kib(&T), T.nsteps, T.nstops, watch_how(&T.w));
	} else {
		if (got >= 1 && strcmp(word, "help"))
			monitor_out("rewind: no monitor command '%s'\n", word);
		monitor_out("rewind monitor commands:\n"
			    "  monitor when          print the current event number\n"
			    "  monitor goto N        go to just after event N (forwards or backwards)\n"
			    "  monitor checkpoint    save this place; prints its id\n"
			    "  monitor restart ID    return to a saved place\n"
			    "  monitor stats         checkpoints, single steps and stops so far\n"
			    "gdb shows the new place after goto and restart when gdbstub.gdb is loaded\n"
			    "(gdbstub --gdb loads it; see gdbstub(1)).\n");
	}
	rsp_send_str(&conn, "OK");
}

static void read_memory(const char *args)
{
	unsigned long long addr, len;
	if (sscanf(args, "%llx,%llx", &addr, &len) != 2 || len > 65536) {
		rsp_send_str(&conn, "E01");
		return;
	}
	static uint8_t buf[65536];
	static char hex[2 * 65536 + 1];
	struct pt_proc *m = D.p.pid > 0 ? &D.p : tl_mem(&T);
	ssize_t n = m ? pt_read(m, addr, buf, len) : -1;
	if (n <= 0) {
		rsp_send_str(&conn, "E14");
		return;
	}
	tsc_unpatch(T.pid, addr, buf, n);	/* gdb sees the program's code */
	count_unpatch(T.pid, addr, buf, n);
	rsp_hex(hex, buf, n);
	rsp_send(&conn, hex, 2 * n);
}

/* Z/z packets: type 0 and 1 are breakpoints, 2-4 watchpoints. */
static void breakpoint(const char *p, int insert)
{
	int type;
	unsigned long long addr, kind;
	if (sscanf(p, "%d,%llx,%llx", &type, &addr, &kind) != 3 || type < 0 || type > 4) {
		rsp_send_str(&conn, "");
		return;
	}
	struct stopset *s = &T.user;
	if (type <= 1 && insert && count_will_move(tl_mem(&T), T.pid, addr)) {
		/* Its int3 would never run: refused, never silently missed. */
		fprintf(stderr, "rewind: no breakpoint at 0x%llx: the instruction there was moved into a "
			"trampoline to count a loop's edge; record with REWIND_NO_COUNT=1 to stop there\n",
			addr);
		rsp_send_str(&conn, "E01");
		return;
	}
	if (type <= 1) {
		int i = 0;
		while (i < s->nbp && s->bp[i] != addr)
			i++;
		if (insert && i == s->nbp) {
			if (s->nbp == TL_MAXBP) {
				rsp_send_str(&conn, "E01");
				return;
			}
			s->bp[s->nbp++] = addr;
		} else if (!insert && i < s->nbp) {
			s->bp[i] = s->bp[--s->nbp];
		}
		rsp_send_str(&conn, "OK");
		return;
	}
	int i = 0;
	while (i < s->nwp && !(s->wp[i].addr == addr && s->wp[i].len == (int)kind && s->wp[i].type == type))
		i++;
	if (insert) {
		if (s->nwp == TL_MAXWP || (kind != 1 && kind != 2 && kind != 4 && kind != 8) ||
		    addr % kind) {
			rsp_send_str(&conn, "E01");
			return;
		}
		if (i == s->nwp) {
			s->wp[s->nwp].addr = addr;
			s->wp[s->nwp].len = kind;
			s->wp[s->nwp++].type = type;
		}
	} else if (i < s->nwp) {
		s->wp[i] = s->wp[--s->nwp];
	}
	rsp_send_str(&conn, "OK");
}

static void pass_signals(const char *list)
{
	T.pass[0] = T.pass[1] = 0;
	while (*list) {
		int sig = from_gdb((int)strtol(list, (char **)&list, 16));
		if (sig > 0 && sig < 128)
			T.pass[sig / 64] |= 1ull << (sig % 64);
		if (*list == ';')
			list++;
		else
			break;
	}
	rsp_send_str(&conn, "OK");
}

static void xfer(const char *p)
{
	char object[32], annex[256];
	unsigned long long off, len;
	if (sscanf(p, "%31[^:]:read:%255[^:]:%llx,%llx", object, annex, &off, &len) != 4 &&
	    (annex[0] = 0, sscanf(p, "%31[^:]:read::%llx,%llx", object, &off, &len) != 3)) {
		rsp_send_str(&conn, "");
		return;
	}
	if (!strcmp(object, "features")) {
		size_t n;
		const char *xml = regs_xml(annex, &n);
		if (!xml)
			rsp_send_str(&conn, "E00");
		else
			rsp_send_xfer(&conn, xml, n, off, len);
	} else if (!strcmp(object, "exec-file")) {
		rsp_send_xfer(&conn, T.exe, strlen(T.exe), off, len);
	} else if (!strcmp(object, "auxv")) {
		char path[64];
		static uint8_t auxv[4096];
		struct pt_proc *m = tl_mem(&T);
		snprintf(path, sizeof path, "/proc/%d/auxv", m ? m->pid : 0);
		FILE *f = fopen(path, "re");
		size_t n = f ? fread(auxv, 1, sizeof auxv, f) : 0;
		if (f)
			fclose(f);
		rsp_send_xfer(&conn, auxv, n, off, len);
	} else {
		rsp_send_str(&conn, "");
	}
}

/* A thread id of a packet: -1 (all) and 0 (any) are 0. */
static uint32_t thread_arg(const char *p)
{
	long v = strtol(p, NULL, 16);
	return v > 0 ? (uint32_t)v : 0;
}

/* vCont;ACTION[:TID]...: all-stop, so a step of one thread (the others
 * run meanwhile) or a continue of all. */
static void vcont(const char *p)
{
	if (!strcmp(p, "?")) {
		rsp_send_str(&conn, "vCont;c;C;s;S");
		return;
	}
	int step = 0;
	uint32_t which = 0;
	while (*p == ';' && p[1]) {
		char a = p[1];
		p += 2;
		while (*p && *p != ':' && *p != ';')	/* a signal number */
			p++;
		uint32_t th = *p == ':' ? thread_arg(p + 1) : 0;
		while (*p && *p != ';')
			p++;
		if (a == 's' || a == 'S') {
			if (!step)
				which = th;
			step = 1;
		} else if (a != 'c' && a != 'C') {
			rsp_send_str(&conn, "");
			return;
		}
	}
	uint32_t hc = gstep;	/* vCont names its threads: Hc stays as gdb set it */
	gstep = which ? which : T.ran;
	move(step ? tl_step : tl_cont);
	gstep = hc;
	upick = T.ran;
}

/* Is tid a live thread of the debugged process? */
static int alive(uint32_t tid)
{
	struct eng_task *k = eng_task_of(&T.e, tid);
	return k && k->rtgid == T.pid;
}

static void thread_list(void)
{
	static uint32_t tids[4096];
	static char buf[4096 * 9 + 2];
	int n = tl_threads(&T, tids, 4096), k = 0;
	if (!n)		/* all gone: the last one stays in view */
		tids[n++] = T.ran;
	buf[k++] = 'm';
	for (int i = 0; i < n; i++)
		k += sprintf(buf + k, "%s%x", i ? "," : "", tids[i]);
	rsp_send(&conn, buf, k);
}

/* Registers gdb reads: the diversion's, when it copies that thread. */
static pid_t regs_of(uint32_t tid, struct user_regs_struct *r)
{
	if (D.p.pid > 0 && tid == D.tid) {
		pt_getregs(&D.p, r);
		return D.p.pid;
	}
	return tl_regs_of(&T, tid, r);
}

/* M, P and G packets: history is read-only, so they go to a diversion.
 * Where none can be made, gdb says "Cannot access memory" (M) or shows
 * the reply (P, G); see gdbstub(1). */
static void write_packet(const char *pkt)
{
	uint32_t tid = gsel ? gsel : T.ran;
	if (div_begin(&D, &T, tid) < 0) {
		rsp_sendf(&conn, "E.rewind: history is read-only (%s)", T.msg);
		return;
	}
	struct user_regs_struct r;
	int ok = -1;
	if (pkt[0] == 'M') {
		static uint8_t buf[32768];
		unsigned long long addr, len;
		const char *hex = strchr(pkt, ':');
		if (sscanf(pkt + 1, "%llx,%llx", &addr, &len) == 2 && hex && len <= sizeof buf &&
		    strlen(hex + 1) == 2 * len && rsp_unhex(buf, hex + 1, len) == 0)
			ok = pt_write(&D.p, addr, buf, len);
	} else {
		pt_getregs(&D.p, &r);
		if (pkt[0] == 'P') {
			char *eq;
			long regno = strtol(pkt + 1, &eq, 16);
			ok = *eq == '=' ? regs_set_one(D.p.pid, &r, (int)regno, eq + 1) : -1;
		} else {
			ok = regs_set_all(D.p.pid, &r, pkt + 1);
		}
		if (ok == 0)
			pt_setregs(&D.p, &r);
		if (ok == 0 && D.calls)
			D.regs = 1;
	}
	rsp_send_str(&conn, ok == 0 ? "OK" : "E01");
}

/* qXfer:siginfo: gdb reads it before a call and writes it back after:
 * the call's bounds. The copy was stopped by no signal: zeros. */
static void siginfo(const char *p, int write)
{
	static const uint8_t zero[128];
	unsigned long long off, len;
	if (!write) {
		if (sscanf(p, "read::%llx,%llx", &off, &len) != 2) {
			rsp_send_str(&conn, "E01");
			return;
		}
		if (off == 0) {
			D.calls++;
			D.regs = 0;
		}
		rsp_send_xfer(&conn, zero, sizeof zero, off, len);
		return;
	}
	const char *data = strchr(p + 7, ':');	/* write::OFF:DATA */
	size_t n = 0;
	for (const char *c = data ? data + 1 : ""; *c; c++)
		n += *c != '}';
	if (D.calls > 0)
		D.calls--;
	rsp_sendf(&conn, "%zx", n);
}

static int serve(void)
{
	static char pkt[1 << 16];
	static char hex[REGS_HEX_MAX];
	for (;;) {
		int n = rsp_recv(&conn, pkt, sizeof pkt);
		if (n == RSP_INTERRUPT)
			continue;	/* already stopped */
		if (n == RSP_TOOLONG) {
			rsp_send_str(&conn, "E01");
			continue;
		}
		if (n < 0)
			return 0;
		struct user_regs_struct r;
		switch (pkt[0]) {
		case '?': {
			struct why w = { .why = WHY_STEP };
			stop_reply(&w);
			break;
		}
		case 'g': {
			pid_t pid = regs_of(gsel, &r);
			if (pid < 0)
				rsp_send_str(&conn, "E01");
			else
				rsp_send(&conn, hex, regs_hex_all(pid, &r, hex));
			break;
		}
		case 'p': {
			pid_t pid = regs_of(gsel, &r);
			int k = pid < 0 ? -1 : regs_hex_one(pid, &r, (int)strtol(pkt + 1, NULL, 16), hex);
			rsp_send_str(&conn, k < 0 ? "E01" : hex);
			break;
		}
		case 'm':
			read_memory(pkt + 1);
			break;
		case 'M': case 'G': case 'P':
			write_packet(pkt);
			break;
		case 'X':	/* not offered: gdb writes with M */
			rsp_send_str(&conn, "");
			break;
		case 'c': case 'C':
			move(tl_cont);
			break;
		case 's': case 'S':
			move(tl_step);
			break;
		case 'b':
			if (pkt[1] == 'c') {
				move(tl_rcont);
			} else if (pkt[1] == 's') {
				move(tl_rstep);
			}
			else
				rsp_send_str(&conn, "");
			break;
		case 'Z': case 'z':
			breakpoint(pkt + 1, pkt[0] == 'Z');
			break;
		case 'H':
			if (pkt[1] == 'g' && thread_arg(pkt + 2) && !alive(thread_arg(pkt + 2))) {
				rsp_send_str(&conn, "E01");
				break;
			}
			if (pkt[1] == 'g')
				gsel = thread_arg(pkt + 2) ? thread_arg(pkt + 2) : T.ran;
			else if (pkt[1] == 'c')
				gstep = thread_arg(pkt + 2);
			rsp_send_str(&conn, "OK");
			break;
		case 'T':
			if (alive(thread_arg(pkt + 1)))
				upick = thread_arg(pkt + 1);
			rsp_send_str(&conn, alive(thread_arg(pkt + 1)) ? "OK" : "E01");
			break;
		case 'k':
			div_end(&D);
			return 0;
		case 'D':
			rsp_send_str(&conn, "OK");
			return 0;
		case 'v':
			if (!strncmp(pkt, "vCont", 5))
				vcont(pkt + 5);
			else if (!strncmp(pkt, "vKill", 5)) {
				rsp_send_str(&conn, "OK");
				return 0;
			} else
				rsp_send_str(&conn, "");
			break;
		case 'q':
			if (!strncmp(pkt, "qSupported", 10))
				rsp_send_str(&conn, "PacketSize=10000;qXfer:features:read+;qXfer:auxv:read+;"
					    "qXfer:exec-file:read+;qXfer:siginfo:read+;qXfer:siginfo:write+;QStartNoAckMode+;QPassSignals+;"
					    "ReverseStep+;ReverseContinue+;swbreak+;hwbreak+;vContSupported+");
			else if (!strncmp(pkt, "qXfer:siginfo:", 14))
				siginfo(pkt + 14, !strncmp(pkt + 14, "write:", 6));
			else if (!strncmp(pkt, "qXfer:", 6))
				xfer(pkt + 6);
			else if (!strcmp(pkt, "qC"))
				rsp_sendf(&conn, "QC%x", T.ran);
			else if (!strcmp(pkt, "qAttached"))
				rsp_send_str(&conn, "1");
			else if (!strcmp(pkt, "qfThreadInfo"))
				thread_list();
			else if (!strcmp(pkt, "qsThreadInfo"))
				rsp_send_str(&conn, "l");
			else if (!strncmp(pkt, "qRcmd,", 6))
				monitor(pkt + 6);
			else if (!strncmp(pkt, "qSymbol", 7))
				rsp_send_str(&conn, "OK");
			else
				rsp_send_str(&conn, "");
			break;
		case 'Q':
			if (!strcmp(pkt, "QStartNoAckMode")) {
				rsp_send_str(&conn, "OK");
				conn.noack = 1;
			} else if (!strncmp(pkt, "QPassSignals:", 13)) {
				pass_signals(pkt + 13);
			} else {
				rsp_send_str(&conn, "");
			}
			break;
		default:
			rsp_send_str(&conn, "");
		}
	}
}

/* Debug process pid (0: the first) of the opened T, or die. */
static void follow(long long pid)
{
	if (pid > 0 && tl_follow(&T, (uint32_t)pid) < 0)
		die(EXIT_USAGE, "-p %lld: %s", pid, T.msg);
}

/* gdbstub.gdb, the hook that makes gdb re-read the place after a monitor
 * command (gdb itself re-reads only at a stop), built in for --gdb. */
__asm__(".section .rodata\n"
	".globl gdb_hooks\n"
	"gdb_hooks:\n"
	".incbin \"gdbstub/gdbstub.gdb\"\n"
	".byte 0\n"
	".previous\n");
extern const char gdb_hooks[];

/* --gdb: run gdb on the recorded executable, connected to a gdbstub, with
 * gdbstub.gdb loaded (from a memfd it inherits: no file to clean up). */
static void __attribute__((noreturn)) run_gdb(const char *trace, long long go, long long pid,
					       const char *interp)
{
	tl_open(&T, trace, 0);	/* checks the trace and finds the executable */
	follow(pid);
	char exe[4200], self[4096], cmd[9000], qtrace[4400];
	snprintf(exe, sizeof exe, "%s", T.exe);
	tl_close(&T);
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		die(EXIT_TRACE, "cannot find my own path: %s", strerror(errno));
	self[n] = 0;
	/* Single-quote the trace for the shell gdb runs the stub with. */
	size_t q = 0;
	for (const char *s = trace; *s && q < sizeof qtrace - 6; s++) {
		if (*s == '\'') {
			memcpy(qtrace + q, "'\\''", 4);
			q += 4;
		} else {
			qtrace[q++] = *s;
		}
	}
	qtrace[q] = 0;
	char gopt[96] = "";
	if (go >= 0)
		snprintf(gopt, sizeof gopt, "-g %lld ", go);
	if (pid > 0)
		snprintf(gopt + strlen(gopt), sizeof gopt - strlen(gopt), "-p %lld ", pid);
	if (cpu_force)
		strcat(gopt, "--force ");
	snprintf(cmd, sizeof cmd, "target remote | exec '%s' %s'%s'", self, gopt, qtrace);
	/* An IDE (Emacs's M-x gdb) talks to gdb in MI: -i=mi goes on to it. */
	char iopt[64];
	snprintf(iopt, sizeof iopt, "--interpreter=%s", interp ? interp : "console");
	char hooks[64] = "/dev/null";
	int fd = memfd_create("gdbstub.gdb", 0);
	if (fd >= 0 && write_all(fd, gdb_hooks, strlen(gdb_hooks)) == 0)
		snprintf(hooks, sizeof hooks, "/proc/self/fd/%d", fd);
	/* The stub replays to the program's first stop before it answers:
	 * seconds on a loaded machine, past gdb's 2 s default. */
	(void)tsc_unshare();	/* follow() replayed: gdb must not trap rdtsc */
	execlp("gdb", "gdb", "-q", iopt, "-x", hooks, "-ex", "set sysroot /", "-ex",
	       "set remotetimeout 60", "-ex", cmd, exe, (char *)NULL);
	die(EXIT_TRACE, "cannot run gdb: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	progname = "gdbstub";
	long long go = -1, pid = 0;
	const char *listen_on = NULL;
	int with_gdb = 0;
	const char *interp = NULL;	/* --gdb's gdb interpreter (-i) */
	static const struct option lo[] = {
		{ "interpreter", required_argument, 0, 'i' },
		{ "listen", required_argument, 0, 'l' },
		{ "gdb", no_argument, 0, 'G' },
		{ "force", no_argument, 0, 'f' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "g:p:hi:", lo, NULL)) != -1) {
		switch (c) {
		case 'g':
			if ((go = parse_num(optarg)) < 0) {
				fprintf(stderr, "gdbstub: -g wants an event number, not '%s'\n", optarg);
				usage(EXIT_USAGE);
			}
			break;
		case 'p':
			if ((pid = parse_num(optarg)) <= 0 || pid > UINT32_MAX) {
				fprintf(stderr, "gdbstub: -p wants a process id, not '%s'\n", optarg);
				usage(EXIT_USAGE);
			}
			break;
		case 'l':
			listen_on = optarg;
			break;
		case 'G':
			with_gdb = 1;
			break;
		case 'i':	/* -i=mi, as Emacs's M-x gdb passes it */
			interp = optarg + (optarg[0] == '=');
			break;
		case 'f':
			cpu_force = 1;
			break;
		case 'h':
			usage(0);
		default:
			usage(EXIT_USAGE);
		}
	}
	if (argc - optind > 1 || (with_gdb && listen_on))
		usage(EXIT_USAGE);
	const char *trace = trace_pick(optind < argc ? argv[optind] : NULL);
	struct trace_reader tr;
	if (trace_last_event(&tr, trace, &last_event) < 0)
		die(EXIT_TRACE, "%s", tr.err);
	if (go >= 0 && (uint64_t)go > last_event)
		die(EXIT_USAGE, "-g %lld: the trace ends at event %llu", go,
		    (unsigned long long)last_event);
	if (interp && !with_gdb)
		usage(EXIT_USAGE);
	if (with_gdb)
		run_gdb(trace, go, pid, interp);
	signal(SIGINT, SIG_IGN);	/* Ctrl-C reaches us through gdb */
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = tick };	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	int in = 0, out = 1;
	if (listen_on) {
		char err[300];
		int fd = rsp_listen_accept(listen_on, err, sizeof err);
		if (fd < 0)
			die(EXIT_USAGE, "%s", err);
		in = out = fd;
	}
	tl_open(&T, trace, go > 1 ? (uint64_t)go : 0);
	eng_set_hooks(&T.e, &(struct eng_hooks){ .emit = emit, .interrupt = interrupted });
	follow(pid);
	gsel = T.ran;
	int gone = go >= 0 ? tl_goto_event(&T, go) : 0;
	tl_flush(&T);
	if (gone < 0)
		die(EXIT_USAGE, "-g %lld: %s", go, T.msg);
	if (gone > 0)
		warnx_("-g %lld: %s; starting there", go, T.msg);
	rsp_init(&conn, in, out);
	serve();
	tl_close(&T);
	return 0;
}
