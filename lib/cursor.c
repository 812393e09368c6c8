/* cursor.c: the engine's place in the trace: opening it, reading the next
 * event and the one after (e->cur, e->ahead), finding a record's items, and
 * the checked paths of the files a trace names. */
#include "engint.h"
#include "bufabi.h"
#include "count.h"
#include "cpu.h"
#include "files.h"
#include "sys.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The buffer ABI revision start record rec names (0 where it names
 * none: an older rewind). */
static uint32_t trace_bufabi(const struct trace_rec *rec)
{
	struct trace_item it;
	size_t off = trace_fixed_size(TR_START);
	while (trace_item(rec, &off, &it) > 0)
		if (it.tag == IT_BUFABI && it.len >= 4)
			return get32(it.p);
	return 0;
}

void eng_open(struct engine *e, const char *dir)
{
	memset(e, 0, sizeof *e);
	snprintf(e->dir, sizeof e->dir, "%s", dir);
	if (trace_open(&e->r, dir) < 0)
		die(EXIT_TRACE, "%s", e->r.err);
	struct trace_rec rec;
	int k = trace_next(&e->r, &rec);
	if (k < 0)
		die(EXIT_TRACE, "%s", e->r.err);
	if (k == 0 || rec.kind != TR_START)
		die(EXIT_TRACE, "%s: not a rewind trace (no start record)", e->r.path);
	/* The preloaded library and the engine fill and read each other's
	 * buffer: of another revision, the replay would diverge. */
	uint32_t abi = trace_bufabi(&rec);
	if (abi != BUF_ABI && abi != 1 && abi != 2)	/* 1: no redirects, the table empty */
		die(EXIT_TRACE, "%s: recorded by %s rewind (syscall buffer ABI revision %u), this one has "
		    "revision %u: record the program again", e->r.path, abi < BUF_ABI ? "an older" : "a newer",
		    abi, BUF_ABI);
	/* The program starts with the signals ignored and blocked that it
	 * had at recording, whatever replay itself was started with. */
	size_t off = trace_fixed_size(TR_START);
	struct trace_item it;
	int counted = 0, lazily = 0;
	while (trace_item(&rec, &off, &it) > 0)
		if (it.tag == IT_SIGS && it.len >= 16)
			pt_start_signals(get64(it.p), get64(it.p + 8));
		else if (it.tag == IT_FILTER && it.len >= 4) {
			if (get32(it.p) & ~1u)
				die(EXIT_TRACE, "%s: its filter let calls through that this replay does not "
				    "know (bits 0x%x): replay it with the rewind that recorded it",
				    e->r.path, get32(it.p));
			pt_untraced_queries = get32(it.p) & 1;
		}
		else if (it.tag == IT_COUNT && it.len >= 4) {
			counted = get32(it.p) > 0x7fff ? 0x7fff : get32(it.p);
			lazily = it.len >= 8 && get32(it.p + 4);
		}
	if (env_flag("REWIND_TRACE_ALL"))
		pt_trace_all = 1;	/* the engine makes the calls rec let through */
	/* The program saw patched code where rec counted: the same again. */
	count_choose(counted, lazily, dir);
	/* rdrand cannot be trapped, nor CPUID without CPUID faulting: a
	 * CPU without the recording CPU's features takes other paths in
	 * libc, or runs instructions it lacks. */
	cpu_check_trace(dir, &rec);
	/* rdtsc stops the same way it did in rec, or patched the same;
	 * CPUID faults where it did. */
	uint32_t how = rec.size >= 16 ? get32(rec.p + 12) : TSC_TRAP;
	int way = how > 0xffff ? -1 : tsc_choose(how);
	if (way == -2)
		die(EXIT_TRACE, "%s: recorded with CPUID faulting, which this machine lacks (or "
		    "REWIND_NO_CPUID_FAULT is set): replay it where rec --probe shows \"cpuid "
		    "faulting: present\"", e->r.path);
	if (way < 0)
		die(EXIT_TRACE, "%s: recorded with an unknown way of stopping rdtsc (%u); this "
		    "replay is too old for it", e->r.path, how);
	tsc_table_load(dir);	/* CPUID's answers, when kept whole */
}

/* Read the next record of the stream into *dst, copied into *buf (the
 * reader's own buffer changes with every chunk). At the end of the
 * stream, returns 0 if soft, else dies. */
static int read_rec(struct engine *e, struct trace_rec *dst, uint8_t **buf, size_t *cap, int soft)
{
	struct trace_rec rec;
	int k = trace_next(&e->r, &rec);
	if (k < 0) {
		if (e->started)
			pt_kill(&e->p);
		die(EXIT_TRACE, "%s", e->r.err);
	}
	if (k == 0 && soft)
		return 0;
	if (k == 0) {
		if (e->started)
			pt_kill(&e->p);
		die(EXIT_TRACE, "%s: trace ends early after event %llu (the recording did not finish)",
		    e->dir, (unsigned long long)(e->r.next_event ? e->r.next_event - 1 : 0));
	}
	if (rec.size > *cap) {
		*cap = rec.size;
		*buf = xrealloc(*buf, rec.size);
	}
	memcpy(*buf, rec.p, rec.size);
	*dst = rec;
	dst->p = *buf;
	return 1;
}

/* Make the next event e->cur. */
void eng_load_next(struct engine *e)
{
	if (!e->held) {
		read_rec(e, &e->cur, &e->curbuf, &e->curcap, 0);
		return;
	}
	uint8_t *b = e->curbuf;
	size_t c = e->curcap;
	e->cur = e->ahead;
	e->curbuf = e->aheadbuf;
	e->curcap = e->aheadcap;
	e->aheadbuf = b;
	e->aheadcap = c;
	e->held = 0;
}

/* The event after e->cur, read ahead; NULL at the end if soft. */
const struct trace_rec *eng_peek_next(struct engine *e, int soft)
{
	if (!e->held && !read_rec(e, &e->ahead, &e->aheadbuf, &e->aheadcap, soft))
		return NULL;
	e->held = 1;
	return &e->ahead;
}

const struct trace_rec *eng_peek(struct engine *e)
{
	return e->done ? NULL : eng_peek_next(e, 1);
}

int eng_find_item(const struct trace_rec *rec, int tag, int flags, struct trace_item *it)
{
	size_t off = trace_fixed_size(rec->kind);
	int k;
	while ((k = trace_item(rec, &off, it)) > 0)
		if (it->tag == tag && (flags < 0 || it->flags == flags))
			return 1;
	return 0;
}

void eng_bad_record(struct engine *e, const char *what)
{
	if (e->started)
		pt_kill(&e->p);
	die(EXIT_TRACE, "%s: corrupt record at event %llu: %s", e->r.path,
	    (unsigned long long)e->cur.event, what);
}

/* Find the recorded bytes of f and put their path in path, or die
 * naming the file: files/HASH when the trace holds it (a damaged copy is
 * refused), else the file at its recorded path. With real, only the file
 * at its path will do: the kernel maps an ELF interpreter from there. */
static void blob_find(struct engine *e, const struct files_ref *f, int real, char *path, size_t len)
{
	const char *why = "";
	struct stat st;
	int k;
	if (!real) {
		files_blob(path, len, e->dir, f->hash);
		if ((k = files_same(path, f, &why)) == 0)
			return;
		if (k > 0)
			die(EXIT_TRACE, "%s: contents differ from the recorded file %s (%s)%s", path,
			    f->path, why, stat(path, &st) == 0 && st.st_nlink > 1 ?
			    "; it is a hard link to a file changed in place since recording" : "");
		if (errno != ENOENT)
			die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	}
	snprintf(path, len, "%s", f->path);
	if ((k = files_same(path, f, &why)) == 0)
		return;
	const char *hint = real ? "the kernel loads the ELF interpreter from this path, so replay "
				  "needs the recorded one there" :
				  "run tpack on the trace while the original files are intact";
	if (k > 0)
		die(EXIT_TRACE, "%s: changed since recording (%s); %s", path, why, hint);
	if (errno == ENOENT)
		die(EXIT_TRACE, "%s: gone since recording; %s", path, hint);
	die(EXIT_TRACE, "%s: cannot check it: %s; %s", path, strerror(errno), hint);
}

/* The path of a file the trace names, after checking that its bytes are
 * the recorded ones (rec hardlinks files into files/ or records only
 * their path and hash; tpack copies them in). Files already checked are
 * remembered. */
const char *eng_blob_path(struct engine *e, const struct trace_item *it, int real)
{
	static char path[4200], dir[sizeof e->dir];
	static struct { uint64_t hash; int real; char *orig, *path; } seen[256];
	static int nseen;
	static struct files_ref f;
	if (files_ref(it, &f) < 0)
		eng_bad_record(e, "bad file item");
	if (strcmp(dir, e->dir)) {	/* another trace */
		for (; nseen > 0; nseen--) {
			free(seen[nseen - 1].orig);
			free(seen[nseen - 1].path);
		}
		snprintf(dir, sizeof dir, "%s", e->dir);
	}
	for (int i = 0; i < nseen; i++)
		if (seen[i].hash == f.hash && seen[i].real == real && !strcmp(seen[i].orig, f.path)) {
			snprintf(path, sizeof path, "%s", seen[i].path);
			return path;
		}
	blob_find(e, &f, real, path, sizeof path);
	if (nseen < 256) {
		seen[nseen].hash = f.hash;
		seen[nseen].real = real;
		seen[nseen].orig = strdup(f.path);
		seen[nseen++].path = strdup(path);
	}
	return path;
}

/* The signal of the next event of thread tid, when that event is a
 * signal (other threads' events may come first), else 0. */
int eng_next_signal_of(struct engine *e, uint32_t tid)
{
	const struct trace_rec *n = eng_peek_next(e, 1);
	if (!n || n->tid == tid)
		return n && n->kind == TR_SIGNAL && n->size >= 4 ? (int)get32(n->p) : 0;
	struct trace_pos pos;
	struct trace_rec rec;
	int sig = 0;
	trace_tell(&e->r, &pos);
	while (trace_next(&e->r, &rec) > 0)
		if (rec.tid == tid) {
			if (rec.kind == TR_SIGNAL && rec.size >= 4)
				sig = get32(rec.p);
			break;
		}
	if (trace_seek(&e->r, &pos) < 0)
		die(EXIT_TRACE, "%s", e->r.err);
	return sig;
}

/* The class of the call a syscall record, or the end of one during
 * which others ran (TR_SYSRET), is about, with its result in *ret; -1
 * for other records. */
static int call_class(const struct trace_rec *rec, int64_t *ret)
{
	struct trace_syscall sc;
	const struct sys_entry *s = NULL;
	if (rec->kind == TR_SYSCALL && trace_syscall(rec, &sc) == 0) {
		s = sys_row(sc.nr);
		*ret = sc.ret;
	} else if (rec->kind == TR_SYSRET && rec->size >= 16) {
		s = sys_row((int32_t)get32(rec->p));
		*ret = (int64_t)get64(rec->p + 8);
	}
	return s ? s->class : -1;
}

uint64_t eng_process_start(const char *dir, uint32_t pid)
{
	struct trace_reader r;
	struct trace_rec rec;
	int64_t ret;
	uint64_t at = 0;
	int k;
	if (trace_open(&r, dir) < 0)
		die(EXIT_TRACE, "%s", r.err);
	while ((k = trace_next(&r, &rec)) > 0) {
		int cls = call_class(&rec, &ret);
		if (rec.kind == TR_SYSCALL && (rec.flags & TRF_ENTRY) && cls == C_EXECVE)
			continue;	/* the exec is done at its end */
		if (!at && cls == C_CLONE && ret > 0 && (!pid || (uint64_t)ret == pid))
			at = rec.event;
		else if (at && cls == C_EXECVE && rec.tid == pid && ret == 0)
			at = rec.event;
		else
			continue;
		if (!pid || cls == C_EXECVE)
			break;
	}
	if (k < 0)
		die(EXIT_TRACE, "%s", r.err);
	trace_close(&r);
	return at;
}
