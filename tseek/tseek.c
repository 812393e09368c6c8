/* tseek: replays a trace once and leaves persistent checkpoints and an
 * index in TRACE/seek, so replay --to and gdbstub -g start near any event
 * (tseek(1)); --list prints the index. */
#include "account.h"
#include "engine.h"
#include "cpu.h"
#include "seek.h"
#include "sys.h"
#include "util.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_line[] =
	"usage: tseek [--every N | --interval SECONDS] [--quiet] [--force] [TRACE] | tseek --list [TRACE]\n";
static const char help[] =
	"Replay the trace once and store checkpoints plus an index in TRACE/seek/,\n"
	"so that replay --to and gdbstub -g reach any event fast. TRACE defaults to\n"
	"$REWIND_DIR/latest-trace.\n"
	"\n"
	"  --interval SECONDS  take a checkpoint when this much replay time passed\n"
	"                      since the last one (default 1; fractions allowed)\n"
	"  --every N         take a checkpoint every N events instead\n"
	"  --list            print the index (event, file, size) and exit\n"
	"  -q, --quiet       no progress and no summary on stderr (errors still)\n"
	"  --force           replay on a CPU that lacks a feature the recording CPU\n"
	"                    had, or a trace without a cpu file (warn instead\n"
	"                    of refusing)\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"See tseek(1).\n";

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
}

static int list(const char *dir)
{
	struct seek_entry *ents;
	char why[4600];
	/* First that dir is a trace at all: "no index" would send the user
	 * to run tseek on something that is not one. */
	struct trace_reader r;
	if (trace_open(&r, dir) < 0)
		die(EXIT_TRACE, "%s", r.err);
	trace_close(&r);
	int n = seek_index(dir, &ents, why, sizeof why);
	if (n < 0)
		die(EXIT_TRACE, "%s", why);
	char path[4400];
	snprintf(path, sizeof path, "%s/%s/index", dir, SEEK_DIR);
	if (n == 0 && access(path, F_OK) < 0)
		die(EXIT_TRACE, "%s: no index; run tseek on the trace first", path);
	printf("%-12s %-24s %s\n", "event", "file", "bytes");
	for (int i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s/cp-%llu", SEEK_DIR, (unsigned long long)ents[i].event);
		printf("%-12llu %-24s %llu\n", (unsigned long long)ents[i].event, name,
		       (unsigned long long)ents[i].size);
	}
	free(ents);
	return 0;
}

/* A failed tseek leaves no half-made store: every exit but the one after
 * seek_finish() removes DIR/seek.new (only in tseek's own process, not
 * in a forked checkpoint). */
static const char *store_dir;
static pid_t store_pid;

static void drop_store(void)
{
	if (store_dir && getpid() == store_pid)
		seek_abandon(store_dir);
}

/* The event of the call or signal that ends the program: the one
 * before the trace's exit record (from the chunk headers, cheap); 0 when
 * that cannot be told (the replay then says why). */
static uint64_t final_event(const char *dir)
{
	struct trace_reader r;
	uint64_t last;
	return trace_last_event(&r, dir, &last) == 0 && last > 0 ? last - 1 : 0;
}

/* The next event (nx) is fin, the one that ends the program: the last
 * place for a checkpoint. The end of a thread, or of a process among
 * others, is not: only --every and --interval space checkpoints. */
static int last_chance(const struct trace_rec *nx, uint64_t fin)
{
	return fin && nx && nx->event == fin;
}

int main(int argc, char **argv)
{
	progname = "tseek";
	long long every = -1;
	double interval = 1.0;
	int do_list = 0, quiet = 0;
	static const struct option lo[] = {
		{ "every", required_argument, 0, 'e' },
		{ "interval", required_argument, 0, 'i' },
		{ "list", no_argument, 0, 'l' },
		{ "force", no_argument, 0, 'f' },
		{ "quiet", no_argument, 0, 'q' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "hq", lo, NULL)) != -1) {
		switch (c) {
		case 'e':
			if ((every = parse_num(optarg)) <= 0) {
				fprintf(stderr, "tseek: --every wants a positive number of events, not '%s'\n", optarg);
				usage(EXIT_USAGE);
			}
			break;
		case 'i': {
			char *end;
			interval = strtod(optarg, &end);
			if (*end || end == optarg || !(interval > 0)) {
				fprintf(stderr, "tseek: --interval wants a positive number of seconds, not '%s'\n", optarg);
				usage(EXIT_USAGE);
			}
			break;
		}
		case 'l':
			do_list = 1;
			break;
		case 'f':
			cpu_force = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(0);
		default:
			usage(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		usage(EXIT_USAGE);
	const char *dir = trace_pick(optind < argc ? argv[optind] : NULL);
	if (do_list)
		return list(dir);
	char tmp[4400];	/* what seek_create() makes: ^C removes it */
	snprintf(tmp, sizeof tmp, "%s/%s.new", dir, SEEK_DIR);
	exit_on_sigint(tmp);
	signal(SIGQUIT, SIG_IGN);
	struct engine e;
	eng_open(&e, dir);
	/* Runs of buffered calls are answered inside the process, as replay
	 * does: checkpoints fall between them. The event before the
	 * program's end is replayed on its own, not inside a run with the
	 * end, so that the checkpoint just before the exit has its place. */
	uint64_t fin = final_event(dir);
	eng_set_opts(&e, &(struct eng_opts){ .batch = !env_flag("REWIND_NO_BUFFER"),
					     .limit = fin > 2 ? fin - 1 : 0 });
	store_dir = dir;
	store_pid = getpid();
	atexit(drop_store);
	struct seek_store *s = seek_create(dir);
	struct account *a = acct_start(dir, quiet, every, interval);
	double last = mono_s();
	uint64_t since = 0;	/* the event of the last checkpoint */
	while (eng_step(&e)) {
		struct trace_pos pos;
		trace_tell(&e.r, &pos);
		acct_event(a, e.cur.event, pos.off);
		/* Events, not steps: a step may answer a run of buffered
		 * calls. */
		int due = every > 0 ? e.cur.event - since >= (uint64_t)every : mono_s() - last >= interval;
		/* None at or after the call or signal that ends the program:
		 * nothing but the end is left to replay. */
		if (!(due || last_chance(eng_peek(&e), fin)) || e.cur.event <= 1 ||
		    (fin && e.cur.event >= fin))
			continue;
		const char *why;
		if (seek_capture(s, &e, &why) == 0) {
			since = e.cur.event;
			last = mono_s();
		}
		acct_try(a, e.cur.event, why);
	}
	uint64_t end = e.cur.event;	/* the trace's last event (TR_EXIT) */
	eng_close(&e);
	signal(SIGINT, SIG_IGN);	/* the renames that put seek.new in place */
	uint64_t bytes;
	seek_finish(s, &bytes);
	store_dir = NULL;
	acct_end(a, end, bytes);
	return 0;
}
