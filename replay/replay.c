/* replay: re-executes a recorded trace without the outside world and
 * writes again what the program wrote to stdout and stderr (replay(1)). */
#include "cpu.h"
#include "engine.h"
#include "fmt.h"
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

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: replay [--to EVENT] [-M] [--force] [TRACE]\n");
	exit(status);
}

static void emit(void *ctx, uint64_t ev, uint32_t pid, int stream, const uint8_t *data,
		 size_t len)
{
	(void)ctx;
	if (stream != 1 && stream != 2)
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

static void print_stop(struct engine *e)
{
	struct user_regs_struct r;
	int gone = eng_regs(e, &r) < 0;
	static char text[1 << 16];
	struct sn_buf b;
	sn_init(&b, text, sizeof text);
	const char *kind = fmt_event(&e->cur, &b, NULL, 0);
	/* The event as tdump prints it, so the two can be matched. */
	printf("-- stopped after event %llu --\n%llu %u %s%s%s\n", (unsigned long long)e->cur.event,
	       (unsigned long long)e->cur.event, e->cur.tid, kind, b.len ? " " : "", text);
	if (gone) {
		printf("thread %u has ended: no registers\n", e->cur.tid);
		return;
	}
#define R(x) printf("%-8s 0x%016llx\n", #x, (unsigned long long)r.x)
	R(rip); R(rsp); R(rbp); R(rax); R(rbx); R(rcx); R(rdx); R(rsi); R(rdi);
	R(r8); R(r9); R(r10); R(r11); R(r12); R(r13); R(r14); R(r15);
	R(eflags); R(orig_rax); R(fs_base); R(gs_base);
#undef R
}

int main(int argc, char **argv)
{
	progname = "replay";
	long long to = -1;
	static const struct option lo[] = {
		{ "to", required_argument, 0, 't' },
		{ "force", no_argument, 0, 'f' },
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
		case 'h':
			usage(0);
		default:
			usage(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		usage(EXIT_USAGE);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	struct engine e;
	const char *dir = trace_pick(optind < argc ? argv[optind] : NULL);
	/* Seeking starts at the nearest checkpoint tseek left, so the output
	 * before it is not written again; a plain replay always starts at
	 * the beginning. */
	uint64_t at = to > 1 ? eng_open_at(&e, dir, to) : (eng_open(&e, dir), 0);
	e.emit = emit;
	/* Nothing looks at the program between events: runs of buffered
	 * calls are answered inside it (not past --to's event). */
	const char *nobuf = getenv("REWIND_NO_BUFFER");
	e.batch = !nobuf || !*nobuf || !strcmp(nobuf, "0");
	e.limit = to > 0 ? (uint64_t)to : 0;
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
		if (to >= 0 && e.cur.event == (uint64_t)to) {
			fflush(stdout);
			print_stop(&e);
			eng_close(&e);
			return 0;
		}
	}
	if (to >= 0)
		die(EXIT_USAGE, "--to %lld: the trace ends at event %llu", to,
		    (unsigned long long)e.cur.event);
	int st = e.status;
	eng_close(&e);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
