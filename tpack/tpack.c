/* tpack: copies into a trace every file it depends on and does not yet
 * hold as an independent copy, plus the CPU description, so that it
 * replays after the files change or elsewhere (tpack(1)). */
#include "cpu.h"
#include "files.h"
#include "trace.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int opt_dry, opt_quiet;

static const char usage_line[] =
	"usage: tpack [-n] [-q] [TRACE]\n";
static const char help[] =
	"Copy every file the trace depends on (executables, libraries, mapped\n"
	"files) into TRACE/files/, so it replays after they change or on another\n"
	"machine. TRACE defaults to $REWIND_DIR/latest-trace.\n"
	"\n"
	"  -n, --dry-run     check the files and say what would be added; change\n"
	"                    nothing\n"
	"  -q, --quiet       print nothing on stdout (errors still go to stderr)\n"
	"  -h, --help        print this help and exit\n"
	"\n"
	"See tpack(1).\n";

static void __attribute__((noreturn)) usage(int status)
{
	usage_exit(status, usage_line, help);
}

/* "1922136 bytes", "2.9 MiB". */
static const char *human(uint64_t n)
{
	static char buf[32];
	static const char *unit[] = { "KiB", "MiB", "GiB", "TiB" };
	if (n < 1024) {
		snprintf(buf, sizeof buf, "%llu byte%s", (unsigned long long)n, n == 1 ? "" : "s");
		return buf;
	}
	double v = n / 1024.0;
	int u = 0;
	while (v >= 1024 && u < 3)
		v /= 1024, u++;
	snprintf(buf, sizeof buf, "%.1f %s", v, unit[u]);
	return buf;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	if (opt_quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("tpack: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/* The distinct files (by content hash and path) the trace's IT_FILE
 * items name, and the start record's IT_CPU text. Dies on a bad trace before
 * anything is changed. */
static struct files_ref *read_refs(const char *dir, size_t *nref, char **cpu_text)
{
	struct trace_reader r;
	struct trace_rec rec;
	struct trace_item it;
	struct files_ref *refs = NULL, f;
	size_t n = 0, cap = 0;
	int k;
	if (trace_open(&r, dir) < 0)
		die(EXIT_TRACE, "%s", r.err);
	*cpu_text = NULL;
	while ((k = trace_next(&r, &rec)) > 0) {
		if (rec.event == 0 && rec.kind != TR_START)
			die(EXIT_TRACE, "%s: not a rewind trace (no start record)", r.path);
		size_t off = trace_fixed_size(rec.kind);
		int ik;
		while ((ik = trace_item(&rec, &off, &it)) > 0) {
			if (rec.kind == TR_START && it.tag == IT_CPU && !*cpu_text) {
				*cpu_text = xmalloc(it.len + 1);
				memcpy(*cpu_text, it.p, it.len);
				(*cpu_text)[it.len] = 0;
			}
			if (it.tag != IT_FILE)
				continue;
			if (files_ref(&it, &f) < 0)
				die(EXIT_TRACE, "%s: corrupt record at event %llu: bad file item", r.path,
				    (unsigned long long)rec.event);
			size_t i;
			for (i = 0; i < n && (refs[i].hash != f.hash || strcmp(refs[i].path, f.path)); i++)
				;
			if (i < n)
				continue;
			if (n == cap)
				refs = xrealloc(refs, (cap = cap ? 2 * cap : 16) * sizeof *refs);
			refs[n++] = f;
		}
		if (ik < 0)
			die(EXIT_TRACE, "%s: corrupt record at event %llu: item overruns the record",
			    r.path, (unsigned long long)rec.event);
	}
	if (k < 0)
		die(EXIT_TRACE, "%s", r.err);
	if (r.next_event == 0)
		die(EXIT_TRACE, "%s: trace ends early: it holds no events (the recording did not finish)",
		    r.path);
	/* Packed all the same: what it holds replays up to there. */
	if (!r.ended)
		warnx_("%s: trace ends early after event %llu (the recording did not finish)", r.path,
		       (unsigned long long)(r.next_event - 1));
	trace_close(&r);
	*nref = n;
	return refs;
}

/* Make files/HASH an independent copy of f's bytes. Returns 1 if it was
 * added, 0 if the trace holds it already, -1 if it cannot be added (and
 * says why when told to: another path may still have the bytes). */
static int pack_one(const char *dir, const struct files_ref *f, int tell)
{
	char blob[4200], tmp[4300];
	const char *why = "", *src = f->path, *lost = "the trace holds no copy";
	struct stat st;
	int k;
	files_blob(blob, sizeof blob, dir, f->hash);
	int have = lstat(blob, &st) == 0;
	if (!have && errno != ENOENT)
		die(EXIT_TRACE, "%s: %s", blob, strerror(errno));
	if (have && S_ISREG(st.st_mode)) {
		/* A hard link shares its inode with the original, so a
		 * rewrite in place would change the trace too: it counts as
		 * not held, and is the best source (it reaches the recorded
		 * inode even after the original path was replaced). */
		k = files_same(blob, f, &why);
		if (k < 0)
			die(EXIT_TRACE, "%s: %s", blob, strerror(errno));
		if (k == 0 && st.st_nlink == 1)
			return 0;
		if (k == 0)
			src = blob;
		else if (st.st_nlink == 1)
			lost = "the trace's copy is damaged";
		else
			lost = "so did the trace's hard link to it";
	}
	if (src == f->path && (k = files_same(src, f, &why)) != 0) {
		if (!tell)
			;
		else if (k > 0)
			warnx_("%s: changed since recording (%s), and %s; it cannot be added",
			       f->path, why, lost);
		else if (errno == ENOENT)
			warnx_("%s: gone since recording, and %s; it cannot be added", f->path, lost);
		else
			warnx_("%s: %s; it cannot be added", f->path, strerror(errno));
		return -1;
	}
	if (opt_dry)
		return 1;
	snprintf(tmp, sizeof tmp, "%s/files/.tpack-%016llx.%d", dir, (unsigned long long)f->hash,
		 (int)getpid());
	k = files_copy(src, tmp, f, &why);
	if (k > 0) {
		warnx_("%s: changed while being copied (%s); it cannot be added", f->path, why);
		return -1;
	}
	if (k < 0 || rename(tmp, blob) < 0) {
		int e = errno;
		unlink(tmp);
		die(EXIT_TRACE, "%s: copying %s: %s", blob, f->path, strerror(e));
	}
	return 1;
}

/* A trace from before the cpu file gets one when this is the recording
 * CPU, as far as its IT_CPU text tells. Returns 1 if added. */
static int pack_cpu(const char *dir, const char *cpu_text)
{
	struct cpu_info c;
	char err[4400], here[8192];
	int k = cpu_load(dir, &c, err, sizeof err);
	if (k != 0)
		return 0;	/* present (checked before anything was changed) */
	cpu_desc(here, sizeof here);
	if (!cpu_text || strcmp(cpu_text, here)) {
		warnx_("%s: recorded on another CPU than this one, so its cpu file cannot be "
		       "written here; run tpack on the recording machine", dir);
		return 0;
	}
	if (opt_dry)
		return 1;
	cpu_read(&c);
	if (cpu_save(dir, &c) < 0)
		die(EXIT_TRACE, "%s/cpu: %s", dir, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	progname = "tpack";
	static const struct option lo[] = {
		{ "dry-run", no_argument, 0, 'n' },
		{ "quiet", no_argument, 0, 'q' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "nqh", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			opt_dry = 1;
			break;
		case 'q':
			opt_quiet = 1;
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

	/* Everything is read and checked before anything is written. */
	size_t n;
	char *cpu_text;
	struct files_ref *refs = read_refs(dir, &n, &cpu_text);
	struct cpu_info cpu;
	char err[4400], files[4200];
	if (cpu_load(dir, &cpu, err, sizeof err) < 0)
		die(EXIT_TRACE, "%s", err);
	snprintf(files, sizeof files, "%s/files", dir);
	if (!opt_dry && mkdir(files, 0700) < 0 && errno != EEXIST)
		die(EXIT_TRACE, "%s: %s", files, strerror(errno));

	uint64_t added = 0;
	int nadded = 0, failed = 0;
	/* One content is packed once, from the first of its paths that
	 * still holds it. */
	char *done = xmalloc(n);
	memset(done, 0, n);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		int more = 0;
		for (size_t j = i + 1; j < n; j++)
			more |= refs[j].hash == refs[i].hash;
		int k = pack_one(dir, &refs[i], !more);
		if (k < 0) {
			failed += !more;
			continue;
		}
		for (size_t j = i + 1; j < n; j++)
			done[j] |= refs[j].hash == refs[i].hash;
		if (k == 0)
			continue;
		say("%s %s (%llu bytes)", opt_dry ? "would add" : "added", refs[i].path,
		    (unsigned long long)refs[i].size);
		added += refs[i].size;
		nadded++;
	}
	int cpu_added = pack_cpu(dir, cpu_text);
	if (cpu_added)
		say("%s the cpu file (this machine's CPUID leaves and XCR0)",
		    opt_dry ? "would add" : "added");
	if (!nadded && !cpu_added && !failed)
		say("nothing to add");
	else if (nadded)
		say("%d file%s, %s %s", nadded, nadded == 1 ? "" : "s", human(added),
		    opt_dry ? "to add" : "added");
	if (failed) {
		fflush(stdout);
		die(1, "%d file%s could not be added; %s does not replay without %s", failed,
		    failed == 1 ? "" : "s", dir, failed == 1 ? "it" : "them");
	}
	free(done);
	free(refs);
	free(cpu_text);
	return 0;
}
