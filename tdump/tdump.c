/* tdump: prints the events of a trace one per line, "EVENT TID KIND
 * DETAIL", with syscalls strace-style, or as JSON lines (tdump(1)). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "trace.h"
#include "util.h"

static int opt_json, opt_raw;
static long long opt_tid = -1;

static const char usage_line[] =
	"usage: tdump [--json] [--raw] [--tid N] [TRACE]\n";
static const char help[] =
	"Print the events of a trace, one per line: \"EVENT TID KIND DETAIL\", with\n"
	"system calls decoded strace-style. TRACE defaults to\n"
	"$REWIND_DIR/latest-trace.\n"
	"\n"
	"  --json            one JSON object per line instead (for jq)\n"
	"  --raw             decode nothing: arguments in hex, signals by number\n"
	"  --tid N           only the events of thread N (as recorded)\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"See tdump(1) and rewind-trace(5).\n";

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
}

/* Stop quietly when the reader of our output went away (tdump | head). */
static void check_output(void)
{
	if (!ferror(stdout) && fflush(stdout) == 0)
		return;
	if (errno == EPIPE)
		exit(0);
	die(1, "write error: %s", strerror(errno));
}

/* Print rec; with print 0, only let fmt_event() learn from it (which
 * process a thread is of, the entry a call's end completes). */
static void show(const struct trace_rec *rec, int print)
{
	static char text[1 << 18], extra[1 << 16], jtext[(1 << 19) + 64];
	struct sn_buf b, j, jt;

	sn_init(&b, text, sizeof text);
	sn_init(&j, extra, sizeof extra);
	const char *kind = fmt_event(rec, &b, opt_json ? &j : NULL, opt_raw);
	if (!print)
		return;
	if (j.full)	/* a cut JSON fragment would not parse: drop it */
		sn_init(&j, extra, sizeof extra);
	if (opt_json) {
		sn_init(&jt, jtext, sizeof jtext);
		js_bytes(&jt, (const uint8_t *)text, b.len);
		printf("{\"event\":%llu,\"tid\":%u,\"kind\":\"%s\"%s,\"text\":%s}\n",
		       (unsigned long long)rec->event, rec->tid, kind, extra, jtext);
	} else {
		printf("%llu %u %s%s%s\n", (unsigned long long)rec->event, rec->tid, kind,
		       b.len ? " " : "", text);
	}
}

int main(int argc, char **argv)
{
	const char *arg = NULL, *dir;
	struct trace_reader r;
	struct trace_rec rec;
	unsigned long long count = 0, last = 0, shown = 0;
	int k, dashdash = 0;

	progname = "tdump";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!dashdash && !strcmp(a, "--json")) {
			opt_json = 1;
		} else if (!dashdash && !strcmp(a, "--raw")) {
			opt_raw = 1;
		} else if (!dashdash && (!strcmp(a, "--tid") || !strncmp(a, "--tid=", 6))) {
			const char *v = a[5] == '=' ? a + 6 : i + 1 < argc ? argv[++i] : NULL;
			if ((opt_tid = parse_num(v)) < 0) {
				fprintf(stderr, "tdump: --tid needs a thread id, not '%s'\n", v ? v : "");
				usage(EXIT_USAGE);
			}
		} else if (!dashdash && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			usage(0);
		} else if (!dashdash && !strcmp(a, "--")) {
			dashdash = 1;
		} else if (!dashdash && a[0] == '-' && a[1]) {
			fprintf(stderr, "tdump: unknown option '%s'\n", a);
			usage(EXIT_USAGE);
		} else if (arg) {
			fprintf(stderr, "tdump: one trace at a time ('%s' and '%s')\n", arg, a);
			usage(EXIT_USAGE);
		} else {
			arg = a;
		}
	}
	dir = trace_pick(arg);

	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (trace_open(&r, dir) < 0)
		die(EXIT_TRACE, "%s", r.err);
	while ((k = trace_next(&r, &rec)) > 0) {
		if (count == 0 && rec.kind != TR_START)
			die(EXIT_TRACE, "%s: not a rewind trace", r.path);
		count++;
		last = rec.event;
		shown += opt_tid < 0 || rec.tid == opt_tid;
		show(&rec, opt_tid < 0 || rec.tid == opt_tid);
		if (ferror(stdout))
			check_output();
	}
	check_output();
	if (k < 0)
		die(EXIT_TRACE, "%s", r.err);
	if (count == 0)
		die(EXIT_TRACE, "%s: trace ends early: it holds no events (the recording did not finish)",
		    r.path);
	if (!r.ended)
		warnx_("%s: trace ends early after event %llu (the recording did not finish)", r.path, last);
	trace_close(&r);
	if (!shown) {
		warnx_("%s: no event of thread %lld", r.path, opt_tid);
		return 1;
	}
	return 0;
}
