/* replay: re-executes a recorded trace without the outside world and
 * writes again what the program wrote to stdout and stderr (replay(1)). */
#include "cpu.h"
#include "engine.h"
#include "fmt.h"
#include "stack.h"
#include "sys.h"
#include "util.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int mark;		/* -M: prefix lines with their event */
static int line_start[3] = { 0, 1, 1 };
static int opt_stack, opt_json;	/* --stack, --json */
static char *stack_filter;	/* --stack-filter: ",name,name," */
static int listing;		/* --stack without --to: events, not output */

static const char usage_line[] =
	"usage: replay [--to EVENT] [-M] [--stack [--stack-filter NAMES] [--json]] [--force] [TRACE]\n";
static const char help[] =
	"Re-execute the program recorded in TRACE (default: $REWIND_DIR/latest-trace)\n"
	"and write again what it wrote to stdout and stderr; exit with its status.\n"
	"\n"
	"  --to EVENT        stop after event EVENT (tdump's numbers): print that\n"
	"                    event's line and the registers of its thread, exit 0\n"
	"  -M                prefix each output line with [EVENT:PID], the write\n"
	"                    event that wrote it and its recorded process id\n"
	"  --stack           print the call stack of the thread at each event:\n"
	"                    instead of the output, each event's line (as tdump\n"
	"                    prints it) then its frames; with --to, only the stack\n"
	"                    at EVENT, after the registers\n"
	"  --stack-filter NAMES\n"
	"                    only events of these syscalls (comma-separated names,\n"
	"                    or kinds: signal, rdtsc, preempt...); implies --stack\n"
	"  --json            with --stack: one JSON object per event, tdump --json's\n"
	"                    fields plus \"stack\", an array of frames\n"
	"  --force           replay on a CPU that lacks a feature the recording\n"
	"                    CPU had, or a trace without a cpu file (warn\n"
	"                    instead of refusing)\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"See replay(1).\n";

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
}

static void emit(void *ctx, uint64_t ev, uint32_t pid, int stream, const uint8_t *data,
		 size_t len)
{
	(void)ctx;
	if ((stream != 1 && stream != 2) || listing)
		return;
	if (!mark) {
		write_all(stream, data, len);
		return;
	}
	char tag[32];
	size_t i = 0;
	while (i < len) {
		if (line_start[stream]) {
			int n = snprintf(tag, sizeof tag, "[%llu:%u] ", (unsigned long long)ev, pid);
			write_all(stream, tag, n);
			line_start[stream] = 0;
		}
		const uint8_t *nl = memchr(data + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - data) + 1 : len;
		write_all(stream, data + i, end - i);
		if (nl)
			line_start[stream] = 1;
		i = end;
	}
}

/* The frames of the current thread, or -1 when it has none (it has
 * ended, or the program has not started). */
static int walk(struct engine *e, struct stack_frame *f)
{
	struct user_regs_struct r;
	if (!e->started || !e->ntasks || eng_regs(e, &r) < 0)
		return -1;
	return stack_walk(e->p.pid, &r, f, STACK_MAX);
}

/* Whether --stack shows event rec, of kind word kind. */
static int wanted(const struct trace_rec *rec, const char *kind)
{
	if (!stack_filter)
		return 1;
	char name[64];
	snprintf(name, sizeof name, ",%s,", kind);
	if (strstr(stack_filter, name))
		return 1;
	struct trace_syscall sc;
	const struct sys_entry *s;
	if ((rec->kind != TR_SYSCALL && rec->kind != TR_SYSRET) || trace_syscall(rec, &sc) < 0 ||
	    !(s = sys_lookup(sc.nr)))
		return 0;
	snprintf(name, sizeof name, ",%s,", s->name);
	return strstr(stack_filter, name) != NULL;
}

/* Print event rec of the engine e as tdump would (a JSON object with
 * opt_json), followed by the stack of its thread when show_stack is set,
 * and with regs (JSON only) its registers. */
static void print_event(struct engine *e, const struct trace_rec *rec, int show_stack,
			const struct user_regs_struct *regs)
{
	static char text[1 << 18], extra[1 << 16], jtext[(1 << 19) + 64], frames[1 << 17];
	static struct stack_frame f[STACK_MAX];
	struct sn_buf b, j, jt, fb;
	sn_init(&b, text, sizeof text);
	sn_init(&j, extra, sizeof extra);
	const char *kind = fmt_event(rec, &b, opt_json ? &j : NULL, 0);
	if (show_stack && !wanted(rec, kind))
		return;
	int n = show_stack ? walk(e, f) : -1;
	sn_init(&fb, frames, sizeof frames);
	if (!opt_json) {
		printf("%llu %u %s%s%s\n", (unsigned long long)rec->event, rec->tid, kind,
		       b.len ? " " : "", text);
		if (n >= 0)
			stack_text(&fb, f, n);
		else if (show_stack)
			sn_puts(&fb, "  (no stack: the thread has ended)\n");
		fputs(frames, stdout);
		return;
	}
	if (j.full)	/* a cut JSON fragment would not parse: drop it */
		sn_init(&j, extra, sizeof extra);
	sn_init(&jt, jtext, sizeof jtext);
	js_bytes(&jt, (const uint8_t *)text, b.len);
	if (n >= 0)
		stack_json(&fb, f, n);
	else
		sn_puts(&fb, "null");
	if (fb.full) {	/* frames' names too long to hold: fewer frames */
		sn_init(&fb, frames, sizeof frames);
		stack_json(&fb, f, n > 8 ? 8 : n);
	}
	printf("{\"event\":%llu,\"tid\":%u,\"kind\":\"%s\"%s,\"text\":%s,\"stack\":%s",
	       (unsigned long long)rec->event, rec->tid, kind, extra, jtext, frames);
	if (regs) {
#define R(x) printf(",\"" #x "\":%llu", (unsigned long long)regs->x)
		printf(",\"regs\":{\"rip\":%llu", (unsigned long long)regs->rip);
		R(rsp); R(rbp); R(rax); R(rbx); R(rcx); R(rdx); R(rsi); R(rdi);
		R(r8); R(r9); R(r10); R(r11); R(r12); R(r13); R(r14); R(r15);
		R(eflags); R(orig_rax); R(fs_base); R(gs_base);
#undef R
		putchar('}');
	}
	puts("}");
}

static void print_stop(struct engine *e)
{
	struct user_regs_struct r;
	int gone = eng_regs(e, &r) < 0;
	if (opt_json) {
		print_event(e, &e->cur, 1, gone ? NULL : &r);
		return;
	}
	/* The event as tdump prints it, so the two can be matched. */
	printf("-- stopped after event %llu --\n", (unsigned long long)e->cur.event);
	print_event(e, &e->cur, 0, NULL);
	if (gone) {
		if (e->cur.kind == TR_EXIT)
			printf("the program has exited: no registers\n");
		else
			printf("thread %u has ended: no registers\n", e->cur.tid);
		return;
	}
#define R(x) printf("%-8s 0x%016llx\n", #x, (unsigned long long)r.x)
	R(rip); R(rsp); R(rbp); R(rax); R(rbx); R(rcx); R(rdx); R(rsi); R(rdi);
	R(r8); R(r9); R(r10); R(r11); R(r12); R(r13); R(r14); R(r15);
	R(eflags); R(orig_rax); R(fs_base); R(gs_base);
#undef R
	if (opt_stack) {
		static struct stack_frame f[STACK_MAX];
		static char text[1 << 17];
		struct sn_buf b;
		sn_init(&b, text, sizeof text);
		int n = walk(e, f);
		if (n >= 0)
			stack_text(&b, f, n);
		printf("stack:\n%s", text);
	}
}

static void mapped(void *ctx, uint64_t addr, uint64_t len, const char *file, const char *path,
		   uint64_t off)
{
	(void)ctx;
	stack_note_map(addr, len, file, path, off);
}

/* Add the comma-separated names of a --stack-filter, each a syscall or
 * an event kind. */
static void add_filter(const char *arg)
{
	static const char *const kinds[] = { "signal", "rdtsc", "rdtscp", "preempt", "task-exit",
					     "sysret" };
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		die(EXIT_TRACE, "out of memory");
	for (char *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		int ok = sys_number(n) >= 0;
		for (size_t i = 0; !ok && i < sizeof kinds / sizeof *kinds; i++)
			ok = !strcmp(n, kinds[i]);
		if (!ok) {
			fprintf(stderr, "replay: --stack-filter: no syscall or event kind named '%s'\n", n);
			usage(EXIT_USAGE);
		}
		size_t len = stack_filter ? strlen(stack_filter) : 1;
		stack_filter = xrealloc(stack_filter, len + strlen(n) + 2);
		if (len == 1)
			strcpy(stack_filter, ",");
		strcat(stack_filter, n);
		strcat(stack_filter, ",");
	}
	free(copy);
}

int main(int argc, char **argv)
{
	progname = "replay";
	long long to = -1;
	static const struct option lo[] = {
		{ "to", required_argument, 0, 't' },
		{ "force", no_argument, 0, 'f' },
		{ "stack", no_argument, 0, 's' },
		{ "stack-filter", required_argument, 0, 'S' },
		{ "json", no_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "Mh", lo, NULL)) != -1) {
		switch (c) {
		case 'M':
			mark = 1;
			break;
		case 'f':
			cpu_force = 1;
			break;
		case 't':
			if ((to = parse_num(optarg)) < 0) {
				fprintf(stderr, "replay: --to wants an event number, not '%s'\n", optarg);
				usage(EXIT_USAGE);
			}
			break;
		case 's':
			opt_stack = 1;
			break;
		case 'S':
			opt_stack = 1;
			add_filter(optarg);
			break;
		case 'j':
			opt_json = 1;
			break;
		case 'h':
			usage(0);
		default:
			usage(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		usage(EXIT_USAGE);
	if (opt_json && !opt_stack) {
		fprintf(stderr, "replay: --json goes with --stack\n");
		usage(EXIT_USAGE);
	}
	if (stack_filter && to >= 0) {
		fprintf(stderr, "replay: --stack-filter picks events to list; --to shows one\n");
		usage(EXIT_USAGE);
	}
	listing = opt_stack && to < 0;
	if (opt_stack)
		stack_init();
	exit_on_sigint(NULL);	/* ^C: the replayed processes die with us */
	signal(SIGQUIT, SIG_IGN);
	struct engine e;
	const char *dir = trace_pick(optind < argc ? argv[optind] : NULL);
	struct trace_reader tr;
	uint64_t last;
	if (to >= 0 && trace_last_event(&tr, dir, &last) == 0 && (uint64_t)to > last)
		die(EXIT_USAGE, "--to %lld: the trace ends at event %llu", to, (unsigned long long)last);
	/* Seeking starts at the nearest checkpoint tseek left, so the output
	 * before it is not written again; a plain replay always starts at
	 * the beginning. */
	/* --stack needs every mapping the program made since its start to
	 * name its files, so it does not start at a checkpoint. */
	uint64_t at = to > 1 && !opt_stack ? eng_open_at(&e, dir, to) : (eng_open(&e, dir), 0);
	eng_set_hooks(&e, &(struct eng_hooks){ .emit = emit, .mapped = opt_stack ? mapped : NULL });
	/* Nothing looks at the program between events (--stack does): runs
	 * of buffered calls are answered inside it (not past --to's event),
	 * and a call that can only succeed ends without a stop (lazy). */
	eng_set_opts(&e, &(struct eng_opts){ .batch = !opt_stack && !env_flag("REWIND_NO_BUFFER"),
					     .limit = to > 0 ? (uint64_t)to : 0,
					     .lazy = !opt_stack && !at });
	if (to == 0) {
		printf("-- stopped after event 0 --\n");
		eng_close(&e);
		return 0;
	}
	if (at && at == (uint64_t)to) {
		print_stop(&e);
		eng_close(&e);
		return 0;
	}
	while (eng_step(&e)) {
		if (listing) {
			print_event(&e, &e.cur, 1, NULL);
			continue;
		}
		if (to >= 0 && e.cur.event == (uint64_t)to) {
			fflush(stdout);
			print_stop(&e);
			eng_close(&e);
			return 0;
		}
	}
	if (to >= 0 && e.cur.kind == TR_EXIT && e.cur.event == (uint64_t)to) {
		fflush(stdout);
		print_stop(&e);	/* the exit, tdump's last line */
		eng_close(&e);
		return 0;
	}
	if (to >= 0)
		die(EXIT_USAGE, "--to %lld: the trace ends at event %llu", to,
		    (unsigned long long)e.cur.event);
	int st = e.status;
	eng_close(&e);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
