/* seek.c: tseek's persistent checkpoints: saving a replayed process
 * (registers, memory map and pages, brk, signal state, the engine's place
 * in the trace) and making a freshly started replay that process again. */
#include "seek.h"
#include "maps.h"
#include "tsc.h"
#include "util.h"
#include "vdso.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/prctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

#define PAGE 4096
#define HASH2_INIT 0x2545f4914f6cdd1dull	/* second seed: 128-bit page names */
#define XSTATE_MAX 65536
#define MAPF_SHARED 1
#define MAPF_STACK 2
#define MAPF_HEAP 4
#define PAGEREF 40	/* addr, hash1, hash2, offset (u64), clen, 0 (u32) */

/* A growable byte buffer for building files. */
struct sb {
	uint8_t *p;
	size_t len, cap;
};

static void sb_put(struct sb *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}
static void sb_64(struct sb *b, uint64_t v) { sb_put(b, &v, 8); }
static void sb_32(struct sb *b, uint32_t v) { sb_put(b, &v, 4); }

/* A bounds-checked cursor over a file's bytes. */
struct rd {
	const uint8_t *p;
	size_t len, off;
	int bad;
};

static const uint8_t *rd_get(struct rd *r, size_t n)
{
	if (r->bad || n > r->len - r->off) {
		r->bad = 1;
		return NULL;
	}
	const uint8_t *q = r->p + r->off;
	r->off += n;
	return q;
}
static uint64_t rd_64(struct rd *r) { const uint8_t *q = rd_get(r, 8); return q ? get64(q) : 0; }
static uint32_t rd_32(struct rd *r) { const uint8_t *q = rd_get(r, 4); return q ? get32(q) : 0; }

static uint64_t sum(const void *p, size_t n)
{
	return hash_final(hash_update(HASH_INIT, p, n), n);
}

static void page_hash(const void *p, uint64_t h[2])
{
	h[0] = hash_final(hash_update(HASH_INIT, p, PAGE), PAGE);
	h[1] = hash_final(hash_update(HASH2_INIT, p, PAGE), PAGE);
}

static int page_zero(const uint8_t *p)
{
	static const uint8_t zero[PAGE];
	return !memcmp(p, zero, PAGE);
}

/* A mapping of /proc/PID/maps. */
struct map {
	uint64_t start, end;
	uint32_t prot, flags;
	int special;	/* [vdso], [vvar] and the like: the kernel's own */
	int vdso;
};

/* Read pid's mappings; returns their number (malloc'd in *out) or -1. */
static int read_maps(pid_t pid, struct map **out)
{
	FILE *f = maps_open(pid);
	if (!f)
		return -1;
	int n = 0, cap = 0;
	struct map *m = NULL;
	struct maps_line ml;
	while (maps_next(f, &ml)) {
		uint64_t a = ml.lo, b = ml.hi;
		const char *perm = ml.perm, *name = ml.name;
		if (n == cap)
			m = xrealloc(m, (cap = cap * 2 + 32) * sizeof *m);
		struct map *x = &m[n++];
		memset(x, 0, sizeof *x);
		x->start = a;
		x->end = b;
		x->prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
			  (perm[2] == 'x' ? PROT_EXEC : 0);
		x->flags = perm[3] == 's' ? MAPF_SHARED : 0;
		if (!strcmp(name, "[stack]"))
			x->flags |= MAPF_STACK;
		else if (!strcmp(name, "[heap]"))
			x->flags |= MAPF_HEAP;
		else if (!strcmp(name, "[vdso]"))
			x->special = x->vdso = 1;
		else if (name[0] == '[' && strncmp(name, "[anon", 5))
			x->special = 1;	/* [vvar], [vvar_vclock], [vsyscall], [uprobes] */
	}
	fclose(f);
	*out = m;
	return n;
}

/* The address of a syscall instruction in the vDSO (0 if none): injected
 * calls run there, so no byte of the program's memory changes. */
static uint64_t vdso_syscall(struct pt_proc *p, const struct map *m, int n, uint64_t *vdso)
{
	*vdso = 0;
	for (int i = 0; i < n; i++) {
		if (!m[i].vdso || m[i].end - m[i].start > (1 << 20))
			continue;
		*vdso = m[i].start;
		size_t len = m[i].end - m[i].start;
		uint8_t *b = xmalloc(len);
		uint64_t at = 0;
		if (pt_read(p, m[i].start, b, len) == (ssize_t)len) {
			uint8_t *q = memmem(b, len, "\x0f\x05", 2);
			if (q)
				at = m[i].start + (q - b);
		}
		free(b);
		return at;
	}
	return 0;
}

/* A hex field of /proc/PID/status ("SigBlk:"), or -1 if unreadable. */
static int status_hex(pid_t pid, const char *field, uint64_t *v)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "re");
	int rc = -1;
	size_t fl = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, field, fl)) {
			*v = strtoull(line + fl, NULL, 16);
			rc = 0;
			break;
		}
	if (f)
		fclose(f);
	return rc;
}

/* The mm fields of struct prctl_mm_map that /proc/PID/stat shows, in
 * that struct's order (start_code ... env_end; brk, which stat lacks, is
 * left 0): fields 26-28 and 45-51. */
static int mm_fields(pid_t pid, uint64_t mm[11])
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = 0;
	char *s = strrchr(buf, ')');
	if (!s)
		return -1;
	static const int want[11] = { 26, 27, 45, 46, 47, 0, 28, 48, 49, 50, 51 };
	uint64_t f[52] = { 0 };
	s += 2;	/* field 3 */
	for (int field = 3; field <= 51 && *s; field++) {
		f[field] = strtoull(s, &s, 10);
		while (*s && *s != ' ')
			s++;	/* the one text field (state) */
		if (*s == ' ')
			s++;
	}
	for (int i = 0; i < 11; i++)
		mm[i] = want[i] ? f[want[i]] : 0;
	return 0;
}

/* Page store: content hash -> place in the pages file. */
struct slot {
	uint64_t h[2], off;
	uint32_t clen;
	int used;
};

struct seek_store {
	char dir[4096], tmp[4200], path[4400];
	int pages_fd;
	uint64_t pages_len;
	struct slot *tab;
	size_t tabcap, tabn;
	ZSTD_CCtx *cctx;
	uint8_t *cbuf;
	size_t ccap;
	uint64_t ev_size, ev_hash;
	struct seek_entry *ents;
	int nents, entcap;
	uint64_t bytes;
	int warned;
};

static struct slot *slot_find(struct seek_store *s, const uint64_t h[2])
{
	size_t i = h[0] & (s->tabcap - 1);
	while (s->tab[i].used && (s->tab[i].h[0] != h[0] || s->tab[i].h[1] != h[1]))
		i = (i + 1) & (s->tabcap - 1);
	return &s->tab[i];
}

static void tab_grow(struct seek_store *s)
{
	struct slot *old = s->tab;
	size_t oldcap = s->tabcap;
	s->tabcap = oldcap ? oldcap * 2 : 4096;
	s->tab = calloc(s->tabcap, sizeof *s->tab);
	if (!s->tab)
		die(EXIT_TRACE, "out of memory");
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*slot_find(s, old[i].h) = old[i];
	free(old);
}

/* Remove dir and the plain files in it. */
static void rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	char p[4400];
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
			unlink(p);
		}
	closedir(d);
	rmdir(dir);
}

static void write_file(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, p, n) < 0 || close(fd) < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
}

static void file_hdr(struct sb *b, const char *magic)
{
	sb_put(b, magic, 8);
	sb_32(b, SEEK_VERSION);
	sb_32(b, 0);
}

struct seek_store *seek_create(const char *dir)
{
	struct seek_store *s = calloc(1, sizeof *s);
	if (!s)
		die(EXIT_TRACE, "out of memory");
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	snprintf(s->path, sizeof s->path, "%s/events", dir);
	if (hash_file(s->path, &s->ev_hash, &s->ev_size) < 0)
		die(EXIT_TRACE, "%s: %s", s->path, strerror(errno));
	snprintf(s->tmp, sizeof s->tmp, "%s/%s.new", dir, SEEK_DIR);
	rm_dir(s->tmp);
	if (mkdir(s->tmp, 0700) < 0)
		die(EXIT_TRACE, "%s: %s", s->tmp, strerror(errno));
	snprintf(s->path, sizeof s->path, "%s/pages", s->tmp);
	s->pages_fd = open(s->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct sb b = { 0 };
	file_hdr(&b, SEEK_PAGES_MAGIC);
	if (s->pages_fd < 0 || write_all(s->pages_fd, b.p, b.len) < 0)
		die(EXIT_TRACE, "%s: %s", s->path, strerror(errno));
	s->pages_len = b.len;
	free(b.p);
	s->cctx = ZSTD_createCCtx();
	if (!s->cctx)
		die(EXIT_TRACE, "zstd: cannot make a compression context");
	ZSTD_CCtx_setParameter(s->cctx, ZSTD_c_compressionLevel, 3);
	ZSTD_CCtx_setParameter(s->cctx, ZSTD_c_checksumFlag, 1);
	s->ccap = ZSTD_compressBound(PAGE);
	s->cbuf = xmalloc(s->ccap);
	tab_grow(s);
	return s;
}

/* Store one page (once per content); its reference goes to b. */
static void put_page(struct seek_store *s, struct sb *b, uint64_t addr, const uint8_t *pg)
{
	uint64_t h[2];
	page_hash(pg, h);
	if ((s->tabn + 1) * 2 > s->tabcap)
		tab_grow(s);
	struct slot *sl = slot_find(s, h);
	if (!sl->used) {
		size_t c = ZSTD_compress2(s->cctx, s->cbuf, s->ccap, pg, PAGE);
		if (ZSTD_isError(c))
			die(EXIT_TRACE, "zstd: %s", ZSTD_getErrorName(c));
		if (write_all(s->pages_fd, s->cbuf, c) < 0)
			die(EXIT_TRACE, "%s/pages: %s", s->tmp, strerror(errno));
		*sl = (struct slot){ { h[0], h[1] }, s->pages_len, c, 1 };
		s->pages_len += c;
		s->tabn++;
	}
	sb_64(b, addr);
	sb_64(b, sl->h[0]);
	sb_64(b, sl->h[1]);
	sb_64(b, sl->off);
	sb_32(b, sl->clen);
	sb_32(b, 0);
}

static void put_rec(struct sb *b, const struct trace_rec *r)
{
	uint16_t kf[2] = { r->kind, r->flags };
	sb_put(b, kf, 4);
	sb_32(b, r->size);
	sb_64(b, r->event);
	sb_32(b, r->tid);
	sb_32(b, 0);
	sb_put(b, r->p, r->size);
}

int seek_capture(struct seek_store *s, struct engine *e)
{
	if (!e->started || e->done || e->pending_sig || e->raised || e->stopping || e->ntasks > 1)
		return 1;	/* a checkpoint holds one thread of one process */
	if (e->fs.n)
		return 1;	/* nor the emulated copies of files mapped shared */
	struct pt_proc *p = &e->p;
	pid_t pid = p->pid;
	struct user_regs_struct r;
	pt_getregs(p, &r);
	if (e->stop == PS_SECCOMP && (int64_t)r.orig_rax != -1)
		return 1;	/* an exit about to run */
	uint64_t pend = 0, spend = 0, blk = 0, mm[11];
	if (status_hex(pid, "SigPnd:", &pend) < 0 || status_hex(pid, "ShdPnd:", &spend) < 0 ||
	    status_hex(pid, "SigBlk:", &blk) < 0 || mm_fields(pid, mm) < 0)
		die(EXIT_TRACE, "/proc/%d: cannot read the replayed process's state", pid);
	if (pend || spend)
		return 1;	/* a signal the kernel holds: not in a checkpoint */
	static uint8_t xs[XSTATE_MAX];
	struct iovec iov = { xs, sizeof xs };
	if (ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, &iov) < 0)
		die(EXIT_TRACE, "ptrace(GETREGSET, NT_X86_XSTATE): %s", strerror(errno));
	struct map *m;
	int n = read_maps(pid, &m);
	if (n < 0)
		die(EXIT_TRACE, "/proc/%d/maps: %s", pid, strerror(errno));
	uint64_t vdso, at = vdso_syscall(p, m, n, &vdso), scratch = 0;
	if (!at)
		at = r.rip;
	for (int i = 0; i < n && !scratch; i++)
		if (!m[i].special && (m[i].prot & PROT_WRITE))
			scratch = m[i].start;

	/* The kernel's state that /proc does not show: brk and the signal
	 * handlers, asked of the process itself. */
	uint64_t a[6] = { 0 }, ret;
	uint64_t act[64][4];
	memset(act, 0, sizeof act);
	int bad = eng_inject(p, &r, at, SYS_brk, a, &mm[5], NULL) < 0 || !scratch;
	uint8_t save[32];
	if (!bad && pt_read(p, scratch, save, 32) != 32)
		bad = 1;
	for (int sig = 1; sig <= 64 && !bad; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		uint64_t b[6] = { sig, 0, scratch, 8, 0, 0 };
		if (eng_inject(p, &r, at, SYS_rt_sigaction, b, &ret, NULL) < 0 || ret != 0 ||
		    pt_read(p, scratch, act[sig - 1], 32) != 32)
			bad = 1;
	}
	if (scratch)
		pt_write(p, scratch, save, 32);
	e->stop = PS_SYSEXIT;	/* where an injected call leaves the tracee */
	if (bad) {
		free(m);
		die(EXIT_TRACE, "event %llu: cannot read brk and the signal handlers of the replayed process",
		    (unsigned long long)e->cur.event);
	}

	struct sb b = { 0 };
	file_hdr(&b, SEEK_CP_MAGIC);
	sb_64(&b, e->cur.event);
	struct trace_pos pos;
	trace_tell(&e->r, &pos);
	sb_64(&b, pos.off);
	sb_64(&b, pos.chunk_off);
	sb_64(&b, pos.chunk_first);
	sb_64(&b, pos.next_event);
	sb_64(&b, pos.rawpos);
	sb_32(&b, pos.nrec_left);
	sb_32(&b, pos.ended);
	sb_put(&b, &r, sizeof r);
	sb_put(&b, mm, sizeof mm);
	sb_64(&b, blk);
	sb_64(&b, vdso);
	sb_put(&b, act, sizeof act);
	sb_32(&b, iov.iov_len);
	sb_32(&b, e->held);
	sb_put(&b, xs, iov.iov_len);
	put_rec(&b, &e->cur);
	if (e->held)
		put_rec(&b, &e->ahead);
	sb_32(&b, strlen(e->exe));
	sb_put(&b, e->exe, strlen(e->exe));
	int nm = 0;
	for (int i = 0; i < n; i++)
		nm += !m[i].special;
	sb_32(&b, nm);
	sb_32(&b, 0);
	static uint8_t buf[256 * PAGE];
	for (int i = 0; i < n; i++) {
		if (m[i].special)
			continue;
		sb_64(&b, m[i].start);
		sb_64(&b, m[i].end);
		sb_32(&b, m[i].prot);
		sb_32(&b, m[i].flags);
		size_t count_at = b.len;
		sb_64(&b, 0);
		uint64_t np = 0;
		for (uint64_t a0 = m[i].start; a0 < m[i].end; a0 += sizeof buf) {
			size_t len = m[i].end - a0 < sizeof buf ? m[i].end - a0 : sizeof buf;
			if (pt_read(p, a0, buf, len) != (ssize_t)len)
				die(EXIT_TRACE, "event %llu: cannot read the replayed process's memory at 0x%llx",
				    (unsigned long long)e->cur.event, (unsigned long long)a0);
			for (size_t o = 0; o < len; o += PAGE)
				if (!page_zero(buf + o)) {
					put_page(s, &b, a0 + o, buf + o);
					np++;
				}
		}
		memcpy(b.p + count_at, &np, 8);
	}
	free(m);
	/* The pages hold patched rdtsc (lib/tsc.h): which places they are. */
	uint8_t *ts;
	size_t tl = tsc_export(e->tasks[0].rtgid, &ts);
	sb_32(&b, tl / 16);
	sb_32(&b, 0);
	sb_put(&b, ts, tl);
	free(ts);
	sb_64(&b, sum(b.p, b.len));
	char path[4400];
	snprintf(path, sizeof path, "%s/cp-%llu", s->tmp, (unsigned long long)e->cur.event);
	write_file(path, b.p, b.len);
	if (s->nents == s->entcap)
		s->ents = xrealloc(s->ents, (s->entcap = s->entcap * 2 + 16) * sizeof *s->ents);
	s->ents[s->nents++] = (struct seek_entry){ e->cur.event, b.len, sum(b.p, b.len) };
	s->bytes += b.len;
	free(b.p);
	return 0;
}

int seek_finish(struct seek_store *s, uint64_t *bytes)
{
	struct sb b = { 0 };
	sb_put(&b, SEEK_INDEX_MAGIC, 8);
	sb_32(&b, SEEK_VERSION);
	sb_32(&b, s->nents);
	sb_64(&b, s->ev_size);
	sb_64(&b, s->ev_hash);
	for (int i = 0; i < s->nents; i++) {
		sb_64(&b, s->ents[i].event);
		sb_64(&b, s->ents[i].size);
		sb_64(&b, s->ents[i].hash);
		sb_64(&b, 0);
	}
	sb_64(&b, sum(b.p, b.len));
	char path[4400], old[4400];
	snprintf(path, sizeof path, "%s/index", s->tmp);
	write_file(path, b.p, b.len);
	if (fsync(s->pages_fd) < 0 || close(s->pages_fd) < 0)
		die(EXIT_TRACE, "%s/pages: %s", s->tmp, strerror(errno));
	*bytes = s->bytes + s->pages_len + b.len;
	free(b.p);
	/* The new directory replaces the old in two renames; a reader in
	 * between finds no index and replays from the start. */
	snprintf(path, sizeof path, "%s/%s", s->dir, SEEK_DIR);
	snprintf(old, sizeof old, "%s/%s.old", s->dir, SEEK_DIR);
	rm_dir(old);
	if (rename(path, old) < 0 && errno != ENOENT)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	if (rename(s->tmp, path) < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	rm_dir(old);
	int k = s->nents;
	ZSTD_freeCCtx(s->cctx);
	free(s->cbuf);
	free(s->tab);
	free(s->ents);
	free(s);
	return k;
}

/* Read a whole file; NULL with errno set on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return NULL;
	}
	uint8_t *b = xmalloc(st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, b + got, st.st_size - got);
		if (k <= 0)
			break;
		got += k;
	}
	close(fd);
	*len = got;
	return b;
}

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int seek_index(const char *dir, struct seek_entry **ents, char *why, size_t wlen)
{
	char path[4400];
	snprintf(path, sizeof path, "%s/%s/index", dir, SEEK_DIR);
	*ents = NULL;
	size_t len;
	uint8_t *b = slurp(path, &len);
	if (!b && errno == ENOENT)
		return 0;
	if (!b)
		return fail(why, wlen, "%s: %s", path, strerror(errno));
	int rc = -1;
	uint32_t n;
	if (len < 40 || memcmp(b, SEEK_INDEX_MAGIC, 8))
		fail(why, wlen, "%s: not a checkpoint index", path);
	else if (get32(b + 8) != SEEK_VERSION)
		fail(why, wlen, "%s: version %u, this build reads %u", path, get32(b + 8), SEEK_VERSION);
	else if (n = get32(b + 12), len != 32 + (size_t)n * 32 + 8)
		fail(why, wlen, "%s: truncated or damaged (%zu bytes for %u checkpoints)", path, len, n);
	else if (get64(b + len - 8) != sum(b, len - 8))
		fail(why, wlen, "%s: damaged (checksum mismatch)", path);
	else {
		char ev[4400];
		uint64_t h, size;
		snprintf(ev, sizeof ev, "%s/events", dir);
		if (hash_file(ev, &h, &size) < 0)
			fail(why, wlen, "%s: %s", ev, strerror(errno));
		else if (size != get64(b + 16) || h != get64(b + 24))
			fail(why, wlen, "%s: made for another events file (stale); run tseek again", path);
		else {
			*ents = xmalloc((n + 1) * sizeof **ents);
			for (uint32_t i = 0; i < n; i++) {
				const uint8_t *q = b + 32 + i * 32;
				(*ents)[i] = (struct seek_entry){ get64(q), get64(q + 8), get64(q + 16) };
			}
			rc = n;
		}
	}
	free(b);
	return rc;
}

static void get_rec(struct rd *r, struct trace_rec *rec, uint8_t **buf, size_t *cap)
{
	const uint8_t *h = rd_get(r, TRACE_REC_HDR);
	if (!h)
		return;
	rec->kind = get16(h);
	rec->flags = get16(h + 2);
	rec->size = get32(h + 4);
	rec->event = get64(h + 8);
	rec->tid = get32(h + 16);
	const uint8_t *q = rd_get(r, rec->size);
	if (!q)
		return;
	if (rec->size > *cap) {
		*cap = rec->size;
		*buf = xrealloc(*buf, rec->size);
	}
	memcpy(*buf, q, rec->size);
	rec->p = *buf;
}

/* Run one call in the tracee through the vDSO's syscall instruction. */
static int call(struct engine *e, const struct user_regs_struct *r, uint64_t at, long nr,
		uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t *ret)
{
	uint64_t a[6] = { a0, a1, a2, a3, a4, 0 };
	return eng_inject(&e->p, r, at, nr, a, ret, NULL);
}

int seek_apply(struct engine *e, const char *dir, const struct seek_entry *ent, char *why,
	       size_t wlen)
{
	char path[4400], ppath[4400];
	snprintf(path, sizeof path, "%s/%s/cp-%llu", dir, SEEK_DIR, (unsigned long long)ent->event);
	snprintf(ppath, sizeof ppath, "%s/%s/pages", dir, SEEK_DIR);
	size_t len;
	uint8_t *b = slurp(path, &len);
	if (!b)
		return fail(why, wlen, "%s: %s", path, strerror(errno));
	int rc = -1, pfd = -1;
	struct map *fresh = NULL;
	ZSTD_DCtx *dctx = NULL;
	if (len != ent->size || len < 24 || sum(b, len) != ent->hash ||
	    get64(b + len - 8) != sum(b, len - 8)) {
		fail(why, wlen, "%s: damaged (size or checksum mismatch)", path);
		goto out;
	}
	if (memcmp(b, SEEK_CP_MAGIC, 8) || get32(b + 8) != SEEK_VERSION) {
		fail(why, wlen, "%s: not a version %u checkpoint", path, SEEK_VERSION);
		goto out;
	}
	struct rd r = { b, len - 8, 16, 0 };
	uint64_t ev = rd_64(&r);
	struct trace_pos pos;
	pos.off = rd_64(&r);
	pos.chunk_off = rd_64(&r);
	pos.chunk_first = rd_64(&r);
	pos.next_event = rd_64(&r);
	pos.rawpos = rd_64(&r);
	pos.nrec_left = rd_32(&r);
	pos.ended = rd_32(&r);
	struct user_regs_struct regs;
	const uint8_t *q = rd_get(&r, sizeof regs);
	if (q)
		memcpy(&regs, q, sizeof regs);
	struct prctl_mm_map mm = { 0 };
	__u64 *mmf[11] = { &mm.start_code, &mm.end_code, &mm.start_data, &mm.end_data,
			   &mm.start_brk, &mm.brk, &mm.start_stack, &mm.arg_start, &mm.arg_end,
			   &mm.env_start, &mm.env_end };
	for (int i = 0; i < 11; i++)
		*mmf[i] = rd_64(&r);
	mm.exe_fd = -1;
	uint64_t blk = rd_64(&r), vdso = rd_64(&r);
	const uint8_t *act = rd_get(&r, 64 * 32);
	uint32_t xlen = rd_32(&r), held = rd_32(&r);
	const uint8_t *xs = rd_get(&r, xlen);
	get_rec(&r, &e->cur, &e->curbuf, &e->curcap);
	if (held)
		get_rec(&r, &e->ahead, &e->aheadbuf, &e->aheadcap);
	uint32_t exelen = rd_32(&r);
	const uint8_t *exe = rd_get(&r, exelen);
	uint32_t nm = rd_32(&r);
	rd_32(&r);
	if (r.bad || ev != ent->event || e->cur.event != ev || exelen >= sizeof e->exe) {
		fail(why, wlen, "%s: damaged (bad layout)", path);
		goto out;
	}
	size_t maps_at = r.off;

	/* The fresh process: its vDSO must be where the checkpoint's was,
	 * since no call can move it. */
	struct pt_proc *p = &e->p;
	int nf = read_maps(p->pid, &fresh);
	uint64_t fvdso = 0, at = nf > 0 ? vdso_syscall(p, fresh, nf, &fvdso) : 0;
	if (nf < 0 || !at || fvdso != vdso) {
		fail(why, wlen, "%s: the vDSO is at 0x%llx here, at 0x%llx in the checkpoint", path,
		     (unsigned long long)fvdso, (unsigned long long)vdso);
		goto out;
	}
	struct user_regs_struct base;
	pt_getregs(p, &base);
	uint64_t ret;
	for (int i = 0; i < nf; i++)
		if (!fresh[i].special &&
		    (call(e, &base, at, SYS_munmap, fresh[i].start, fresh[i].end - fresh[i].start,
			  0, 0, 0, &ret) < 0 || ret != 0)) {
			fail(why, wlen, "%s: cannot unmap 0x%llx in the new process", path,
			     (unsigned long long)fresh[i].start);
			goto out;
		}
	/* Map every range read-write first, to fill it. */
	uint64_t scratch = 0;
	for (uint32_t i = 0; i < nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		uint32_t prot = rd_32(&r), fl = rd_32(&r);
		uint64_t np = rd_64(&r);
		if (r.bad || np > (end - start) / PAGE || !rd_get(&r, np * PAGEREF)) {
			fail(why, wlen, "%s: damaged (bad map)", path);
			goto out;
		}
		(void)prot;
		int flags = MAP_FIXED | MAP_ANONYMOUS | (fl & MAPF_SHARED ? MAP_SHARED : MAP_PRIVATE) |
			    (fl & MAPF_STACK ? MAP_GROWSDOWN : 0);
		if (call(e, &base, at, SYS_mmap, start, end - start, PROT_READ | PROT_WRITE, flags,
			 -1, &ret) < 0 || ret != start) {
			fail(why, wlen, "%s: cannot map 0x%llx-0x%llx in the new process", path,
			     (unsigned long long)start, (unsigned long long)end);
			goto out;
		}
		if (!scratch)
			scratch = start;
	}
	/* brk and the other mm fields in one call; unlike the single
	 * PR_SET_MM fields, PR_SET_MM_MAP needs no CAP_SYS_RESOURCE. */
	if (!scratch || pt_write(p, scratch, &mm, sizeof mm) < 0 ||
	    call(e, &base, at, SYS_prctl, PR_SET_MM, PR_SET_MM_MAP, scratch, sizeof mm, 0, &ret) < 0 ||
	    ret) {
		fail(why, wlen, "%s: cannot set brk to 0x%llx: %s", path, (unsigned long long)mm.brk,
		     strerror(-(int64_t)ret));
		goto out;
	}
	/* Signal handlers and mask, through scratch memory that the pages
	 * written below overwrite (or that is zeroed). */
	static const uint8_t zero[sizeof mm];
	for (int sig = 1; sig <= 64 && scratch; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (pt_write(p, scratch, act + (sig - 1) * 32, 32) < 0 ||
		    call(e, &base, at, SYS_rt_sigaction, sig, scratch, 0, 8, 0, &ret) < 0 || ret) {
			fail(why, wlen, "%s: cannot set the handler of signal %d", path, sig);
			goto out;
		}
	}
	if (!scratch || pt_write(p, scratch, &blk, 8) < 0 ||
	    call(e, &base, at, SYS_rt_sigprocmask, SIG_SETMASK, scratch, 0, 8, 0, &ret) < 0 || ret ||
	    pt_write(p, scratch, zero, sizeof zero) < 0) {
		fail(why, wlen, "%s: cannot set the signal mask", path);
		goto out;
	}
	/* The pages, each checked against its content hash. */
	pfd = open(ppath, O_RDONLY | O_CLOEXEC);
	char hdr[16];
	if (pfd < 0 || pread(pfd, hdr, 16, 0) != 16 || memcmp(hdr, SEEK_PAGES_MAGIC, 8) ||
	    get32((uint8_t *)hdr + 8) != SEEK_VERSION) {
		fail(why, wlen, "%s: %s", ppath, pfd < 0 ? strerror(errno) : "not a version 1 page store");
		goto out;
	}
	dctx = ZSTD_createDCtx();
	static uint8_t cb[PAGE * 2], pg[PAGE];
	r.off = maps_at;
	for (uint32_t i = 0; i < nm; i++) {
		rd_get(&r, 24);
		uint64_t np = rd_64(&r);
		for (uint64_t k = 0; k < np; k++) {
			uint64_t addr = rd_64(&r), h0 = rd_64(&r), h1 = rd_64(&r), off = rd_64(&r);
			uint32_t clen = rd_32(&r);
			rd_32(&r);
			uint64_t h[2];
			size_t d;
			if (clen > sizeof cb || pread(pfd, cb, clen, off) != (ssize_t)clen ||
			    ZSTD_isError(d = ZSTD_decompressDCtx(dctx, pg, PAGE, cb, clen)) || d != PAGE ||
			    (page_hash(pg, h), h[0] != h0 || h[1] != h1)) {
				fail(why, wlen, "%s: damaged page at offset %llu", ppath,
				     (unsigned long long)off);
				goto out;
			}
			if (pt_write(p, addr, pg, PAGE) < 0) {
				fail(why, wlen, "%s: cannot write the page at 0x%llx", path,
				     (unsigned long long)addr);
				goto out;
			}
		}
	}
	r.off = maps_at;
	for (uint32_t i = 0; i < nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		uint32_t prot = rd_32(&r);
		rd_32(&r);
		uint64_t np = rd_64(&r);
		rd_get(&r, np * PAGEREF);
		if (prot != (PROT_READ | PROT_WRITE) &&
		    (call(e, &base, at, SYS_mprotect, start, end - start, prot, 0, 0, &ret) < 0 || ret)) {
			fail(why, wlen, "%s: cannot protect 0x%llx", path, (unsigned long long)start);
			goto out;
		}
	}
	/* Patched rdtsc places; a checkpoint older than them has none. */
	uint32_t ns = r.off + 8 <= r.len ? rd_32(&r) : 0;
	const uint8_t *ts = ns ? (rd_32(&r), rd_get(&r, (size_t)ns * 16)) : NULL;
	if (ns && !ts) {
		fail(why, wlen, "%s: damaged (bad rdtsc places)", path);
		goto out;
	}
	tsc_import(e->tasks[0].rtgid, ts, (size_t)ns * 16);
	/* The vDSO is the fresh process's own: its functions become system
	 * calls, as rec made them in the recorded process (vdso.h). */
	for (int i = 0; i < nf; i++)
		if (fresh[i].vdso)
			vdso_patch(p, fresh[i].start, fresh[i].end - fresh[i].start, NULL, NULL);
	struct iovec iov = { (void *)xs, xlen };
	if (ptrace(PTRACE_SETREGSET, p->pid, NT_X86_XSTATE, &iov) < 0) {
		fail(why, wlen, "%s: cannot set the FP/SSE/AVX state: %s", path, strerror(errno));
		goto out;
	}
	pt_setregs(p, &regs);
	/* The engine's side: the event replayed last, and the reader just
	 * after what it had read. */
	if (trace_seek(&e->r, &pos) < 0) {
		fail(why, wlen, "%s", e->r.err);
		goto out;
	}
	e->held = held;
	memcpy(e->exe, exe, exelen);
	e->exe[exelen] = 0;
	e->stop = PS_SYSEXIT;
	e->pending_sig = e->raised = e->stopping = e->done = 0;
	rc = 0;
out:
	if (pfd >= 0)
		close(pfd);
	ZSTD_freeDCtx(dctx);
	free(fresh);
	free(b);
	return rc;
}
