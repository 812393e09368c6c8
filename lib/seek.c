/* seek.c: tseek's persistent checkpoints: saving a replayed process
 * (registers, memory map and pages, brk, signal state, the engine's place
 * in the trace) and making a freshly started replay that process again. */
#include "seek.h"
#include "maps.h"
#include "pagemap.h"
#include "count.h"
#include "tsc.h"
#include "hashcache.h"
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
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

#define PAGE 4096
#define HASH2_INIT 0x2545f4914f6cdd1dull	/* second seed: 128-bit page names */
#define XSTATE_MAX 65536
#define MAPF_SHARED 1
#define MAPF_STACK 2
#define MAPF_HEAP 4
#define MAPF_EMU 8	/* maps replay's copy of a file: file index and offset */
#define PAGEREF 40	/* addr, hash1, hash2, offset (u64), clen, 0 (u32) */
#define LISTSPAN (1ull << 20)	/* a list block names the pages of one aligned MiB */
#define LISTMAX (LISTSPAN / PAGE * PAGEREF)
#define CNTREF 32	/* hash1, hash2, offset (u64), clen, length (u32) */

/* A growable byte buffer for building files. */
struct sb {
	uint8_t *p;
	size_t len, cap;
};

static void sb_put(struct sb *b, const void *p, size_t n)
{
	if (!n)
		return;	/* p may be NULL then */
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

/* The 128-bit name of n stored bytes (a page, or a list block). */
static void blob_hash(const void *p, size_t n, uint64_t h[2])
{
	h[0] = hash_final(hash_update(HASH_INIT, p, n), n);
	h[1] = hash_final(hash_update(HASH2_INIT, p, n), n);
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
	int memfd;	/* a mapping of replay's copy of a file (emufs.h) */
	uint64_t off, ino;
	char *path;	/* the file mapped (malloc'd), NULL for none */
};

static void free_maps(struct map *m, int n)
{
	for (int i = 0; i < n; i++)
		free(m[i].path);
	free(m);
}

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
		uint64_t a = ml.lo, b = ml.hi, off = ml.off, ino = ml.ino;
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
		x->off = off;
		x->ino = ino;
		x->memfd = !strncmp(name, "/memfd:rewind-file", 18);
		if (ino && name[0] == '/' && !ml.deleted && !x->memfd)
			x->path = strdup(name);
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

/* The mm fields of struct prctl_mm_map that /proc/PID/stat shows, in
 * that struct's order (start_code ... env_end; brk, which stat lacks, is
 * left 0): fields 26-28 and 45-51. */
static int mm_fields(pid_t pid, uint64_t mm[11])
{
	char buf[4096];
	char *s = pt_stat(pid, buf, sizeof buf);	/* field 3 on */
	if (!s)
		return -1;
	static const int want[11] = { 26, 27, 45, 46, 47, 0, 28, 48, 49, 50, 51 };
	uint64_t f[52] = { 0 };
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

void seek_abandon(const char *dir)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/%s.new", dir, SEEK_DIR);
	rm_dir(tmp);
}

struct seek_store *seek_create(const char *dir)
{
	struct seek_store *s = calloc(1, sizeof *s);
	if (!s)
		die(EXIT_TRACE, "out of memory");
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	snprintf(s->path, sizeof s->path, "%s/events", dir);
	if (hash_file_known(s->path, &s->ev_hash, &s->ev_size) < 0)
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
	s->ccap = ZSTD_compressBound(LISTMAX);
	s->cbuf = xmalloc(s->ccap);
	tab_grow(s);
	return s;
}

/* Store n bytes (a page or a list block) once per content. */
static const struct slot *put_blob(struct seek_store *s, const uint8_t *p, size_t n)
{
	uint64_t h[2];
	blob_hash(p, n, h);
	if ((s->tabn + 1) * 2 > s->tabcap)
		tab_grow(s);
	struct slot *sl = slot_find(s, h);
	if (!sl->used) {
		size_t c = ZSTD_compress2(s->cctx, s->cbuf, s->ccap, p, n);
		if (ZSTD_isError(c))
			die(EXIT_TRACE, "zstd: %s", ZSTD_getErrorName(c));
		if (write_all(s->pages_fd, s->cbuf, c) < 0)
			die(EXIT_TRACE, "%s/pages: %s", s->tmp, strerror(errno));
		*sl = (struct slot){ { h[0], h[1] }, s->pages_len, c, 1 };
		s->pages_len += c;
		s->tabn++;
	}
	return sl;
}

/* Store one page (once per content); its reference goes to b. */
static void put_page(struct seek_store *s, struct sb *b, uint64_t addr, const uint8_t *pg)
{
	const struct slot *sl = put_blob(s, pg, PAGE);
	sb_64(b, addr);
	sb_64(b, sl->h[0]);
	sb_64(b, sl->h[1]);
	sb_64(b, sl->off);
	sb_32(b, sl->clen);
	sb_32(b, 0);
}

/* Counting's state of a process (count_export()), n bytes, to the
 * store in pieces of LISTMAX bytes, each stored once per content, and
 * their references to b: its patched places (a table of MiBs for a big
 * program) seldom change between checkpoints, so they cost each one
 * CNTREF bytes a piece, not the table again. */
static void put_count(struct seek_store *s, struct sb *b, const uint8_t *p, size_t n)
{
	sb_32(b, n);
	sb_32(b, 0);
	for (size_t o = 0; o < n; o += LISTMAX) {
		size_t k = n - o < LISTMAX ? n - o : LISTMAX;
		const struct slot *sl = put_blob(s, p + o, k);
		sb_64(b, sl->h[0]);
		sb_64(b, sl->h[1]);
		sb_64(b, sl->off);
		sb_32(b, sl->clen);
		sb_32(b, k);
	}
}

/* The page references of one aligned MiB of a mapping, gathered in l,
 * go to the store as one list block, and its reference to b: a MiB
 * that did not change since the last checkpoint costs 40 bytes, not 40
 * a page. */
static void put_list(struct seek_store *s, struct sb *b, struct sb *l, uint64_t *nb)
{
	if (!l->len)
		return;
	const struct slot *sl = put_blob(s, l->p, l->len);
	sb_64(b, get64(l->p) / LISTSPAN * LISTSPAN);
	sb_64(b, sl->h[0]);
	sb_64(b, sl->h[1]);
	sb_64(b, sl->off);
	sb_32(b, sl->clen);
	sb_32(b, l->len / PAGEREF);
	l->len = 0;
	++*nb;
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

/* pid's pagemap for PAGEMAP_SCAN, or -1 when the kernel has none. */
static int pagemap_open(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/pagemap", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct pm_region r;
	struct pm_scan_arg a = { .size = sizeof a, .start = 0, .end = PAGE, .vec = (uintptr_t)&r,
				 .vec_len = 1, .category_anyof_mask = PM_PRESENT | PM_SWAPPED,
				 .return_mask = PM_PRESENT | PM_SWAPPED };
	if (fd >= 0 && ioctl(fd, PM_SCAN, &a) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The first page at or after a in mapping x that may hold something
 * but zeros: one present or swapped (pagemap pm), or, in a mapping of a
 * file (open at ffd), one over the file's data; the others read as
 * zeros (a hole, memory never touched). x->end when none; a itself
 * when that cannot be told (no PAGEMAP_SCAN, a file not opened). */
static uint64_t next_data(int pm, int ffd, const struct map *x, uint64_t a)
{
	if (pm < 0 || (x->ino && ffd < 0))
		return a;
	struct pm_region r;
	struct pm_scan_arg arg = { .size = sizeof arg, .start = a, .end = x->end,
				   .vec = (uintptr_t)&r, .vec_len = 1,
				   .category_anyof_mask = PM_PRESENT | PM_SWAPPED,
				   .return_mask = PM_PRESENT | PM_SWAPPED };
	int k = ioctl(pm, PM_SCAN, &arg);
	if (k < 0)
		return a;
	uint64_t next = k > 0 ? (r.start > a ? r.start : a) : x->end;
	if (ffd >= 0) {
		off_t d = lseek(ffd, x->off + (a - x->start), SEEK_DATA);
		if (d < 0 && errno != ENXIO)
			return a;
		if (d >= 0 && (uint64_t)d - x->off < next - x->start)
			next = x->start + ((uint64_t)d - x->off) / PAGE * PAGE;
	}
	return next < a ? a : next;
}

/* Whether the signals pend (a SigPnd or ShdPnd mask) that the kernel
 * holds for thread tid (shared: for its process) keep a checkpoint from
 * being made. Not those the run's own children and timers sent: the
 * engine lets none of them in (eng_wait_stop), so a copy without them
 * replays the same, as gdbstub's forked copies, which lose them, do.
 * Those the engine sent, a fault, or any that cannot be read do. */
static int holds_replayed(pid_t tid, uint64_t pend, int shared)
{
	siginfo_t si[64];
	struct __ptrace_peeksiginfo_args a = { 0, shared ? PTRACE_PEEKSIGINFO_SHARED : 0, 64 };
	long n = ptrace(PTRACE_PEEKSIGINFO, tid, &a, si);
	if (n < 0)
		return 1;
	uint64_t seen = 0;
	for (long i = 0; i < n; i++) {
		int sig = si[i].si_signo;
		if (sig < 1 || sig > 64 || si[i].si_pid == getpid() || si[i].si_code == SI_KERNEL ||
		    (si[i].si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
					   sig == SIGFPE || sig == SIGTRAP || sig == SIGSYS)))
			return 1;
		seen |= 1ull << (sig - 1);
	}
	return (pend & ~seen) != 0;	/* pending with no siginfo to tell */
}

/* Save one process (its first thread k) into b: the memory map and
 * every non-zero page, the mm fields, brk and the signal handlers. Returns
 * 0, or 1 when this is no place for a checkpoint (shared memory between
 * processes, which separate copies would not share). Dies when the
 * process cannot be read. */
static int put_proc(struct seek_store *s, struct engine *e, struct eng_task *k, int nprocs,
		    struct sb *b, const char **why)
{
	struct pt_proc *p = &k->p;
	pid_t pid = p->pid;
	uint64_t mm[11], spend = 0;
	if (pt_status_hex(pid, "ShdPnd:", &spend) < 0 || mm_fields(pid, mm) < 0)
		die(EXIT_TRACE, "/proc/%d: cannot read the replayed process's state", pid);
	if (spend && holds_replayed(pid, spend, 1)) {
		*why = "a signal the engine sent, held by the kernel for a process";
		return 1;	/* not in a checkpoint */
	}
	struct map *m;
	int n = read_maps(pid, &m);
	if (n < 0)
		die(EXIT_TRACE, "/proc/%d/maps: %s", pid, strerror(errno));
	/* Which copy of a file each mapping of one maps. A private mapping
	 * of a copy shows the copy's later changes in the pages it did not
	 * write yet, and which those are is not known: no checkpoint. So is
	 * other memory shared between processes, which separate copies
	 * would not share. */
	int *file = xmalloc((n + 1) * sizeof *file);
	for (int i = 0; i < n; i++) {
		file[i] = 0;
		for (int f = 0; m[i].memfd && f < e->fs.n && !file[i]; f++) {
			struct stat st;
			if (fstat(e->fs.f[f].fd, &st) == 0 && st.st_ino == m[i].ino)
				file[i] = f + 1;
		}
		if (!m[i].special && (m[i].memfd ? !file[i] || !(m[i].flags & MAPF_SHARED)
						 : nprocs > 1 && (m[i].flags & MAPF_SHARED))) {
			*why = !m[i].memfd ? "memory mapped shared between processes"
			       : file[i] ? "a private mapping of a file the program maps shared"
					 : "a mapping of a copy of a file replay no longer keeps";
			free(file);
			free_maps(m, n);
			return 1;
		}
	}
	struct user_regs_struct r;
	pt_getregs(p, &r);
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
	/* A signal of the run's own children held for it (holds_replayed)
	 * must not stop the injected calls: every one is blocked meanwhile,
	 * and stays pending, for the engine to let go by as ever. */
	uint64_t mask, all = ~0ull;
	int masked = ptrace(PTRACE_GETSIGMASK, pid, 8, &mask) == 0 &&
		     ptrace(PTRACE_SETSIGMASK, pid, 8, &all) == 0;
	int bad = eng_inject(p, &r, at, SYS_brk, a, &mm[5], NULL) < 0 || !scratch;
	uint8_t save[32];
	if (!bad && pt_read(p, scratch, save, 32) != 32)
		bad = 1;
	for (int sig = 1; sig <= 64 && !bad; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		uint64_t c[6] = { sig, 0, scratch, 8, 0, 0 };
		if (eng_inject(p, &r, at, SYS_rt_sigaction, c, &ret, NULL) < 0 || ret != 0 ||
		    pt_read(p, scratch, act[sig - 1], 32) != 32)
			bad = 1;
	}
	if (scratch)
		pt_write(p, scratch, save, 32);
	eng_injected(e, k, &r);	/* where an injected call leaves the thread */
	if (masked && ptrace(PTRACE_SETSIGMASK, pid, 8, &mask) < 0)
		bad = 1;
	if (bad) {
		free_maps(m, n);
		die(EXIT_TRACE, "event %llu: cannot read brk and the signal handlers of the replayed process",
		    (unsigned long long)e->cur.event);
	}
	int nm = 0;
	for (int i = 0; i < n; i++)
		nm += !m[i].special;
	sb_32(b, k->rtgid);
	sb_32(b, nm);
	sb_put(b, mm, sizeof mm);
	sb_64(b, vdso);
	sb_put(b, act, sizeof act);
	static uint8_t buf[256 * PAGE];
	struct sb list = { 0 };
	int pm = pagemap_open(pid);
	for (int i = 0; i < n; i++) {
		if (m[i].special)
			continue;
		sb_64(b, m[i].start);
		sb_64(b, m[i].end);
		sb_32(b, m[i].prot);
		sb_32(b, m[i].flags | (file[i] ? MAPF_EMU : 0));
		sb_32(b, file[i]);
		sb_32(b, 0);
		sb_64(b, m[i].off);
		size_t count_at = b->len;
		sb_64(b, 0);
		uint64_t nb = 0;
		int ffd = m[i].path && pm >= 0 ? open(m[i].path, O_RDONLY | O_CLOEXEC) : -1;
		for (uint64_t a0 = m[i].start; a0 < m[i].end && !file[i]; a0 += sizeof buf) {
			/* Only what may hold something: a reservation of a
			 * terabyte with ten pages used costs ten pages. */
			a0 = next_data(pm, ffd, &m[i], a0);
			if (a0 >= m[i].end)
				break;
			size_t len = m[i].end - a0 < sizeof buf ? m[i].end - a0 : sizeof buf;
			if (pt_read(p, a0, buf, len) != (ssize_t)len)
				die(EXIT_TRACE, "event %llu: cannot read the replayed process's memory at 0x%llx",
				    (unsigned long long)e->cur.event, (unsigned long long)a0);
			for (size_t o = 0; o < len; o += PAGE) {
				if (list.len && get64(list.p) / LISTSPAN != (a0 + o) / LISTSPAN)
					put_list(s, b, &list, &nb);
				if (!page_zero(buf + o))
					put_page(s, &list, a0 + o, buf + o);
			}
		}
		put_list(s, b, &list, &nb);
		memcpy(b->p + count_at, &nb, 8);
		if (ffd >= 0)
			close(ffd);
	}
	free(list.p);
	free(file);
	free_maps(m, n);
	if (pm >= 0)
		close(pm);
	/* The pages hold patched rdtsc (lib/tsc.h): which places they are. */
	uint8_t *ts;
	size_t tl = tsc_export(k->rtgid, &ts);
	sb_32(b, tl / 16);
	sb_32(b, 0);
	sb_put(b, ts, tl);
	free(ts);
	/* And counting's patched places, trampolines and the threads'
	 * counts (lib/count.h), when the trace was counted. */
	uint8_t *cs;
	size_t cl = count_export(k->rtgid, &cs);
	put_count(s, b, cs, cl);
	free(cs);
	return 0;
}

int seek_capture(struct seek_store *s, struct engine *e, const char **why)
{
	if ((*why = eng_copy_blocker(e)))
		return 1;	/* a thread where no copy can be made */
	eng_task_of(e, e->tasks[e->ti].rtid);	/* its p up to date */
	int n = e->ntasks, nprocs = 0;
	struct eng_snap_thread *th = xmalloc(n * sizeof *th);
	memset(th, 0, n * sizeof *th);
	int rc = 1;
	struct sb b = { 0 };
	for (int i = 0; i < n; i++) {
		struct eng_task *k = &e->tasks[i];
		uint64_t pend = 0;
		if (k->state == ET_GONE)
			continue;
		nprocs += k->rtid == k->rtgid;
		if (pt_status_hex(k->p.pid, "SigPnd:", &pend) < 0 || eng_thread_state(&k->p, &th[i]) < 0)
			die(EXIT_TRACE, "/proc/%d: cannot read the replayed thread's state", k->p.pid);
		if (pend && holds_replayed(k->p.pid, pend, 0)) {
			*why = "a signal the engine sent, held by the kernel for a thread";
			goto out;
		}
	}
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
	sb_32(&b, e->held);
	sb_32(&b, n);
	sb_32(&b, e->ti);
	sb_32(&b, nprocs);
	put_rec(&b, &e->cur);
	if (e->held)
		put_rec(&b, &e->ahead);
	sb_32(&b, strlen(e->exe));
	sb_put(&b, e->exe, strlen(e->exe));
	/* The threads: the engine's view of each, and the state of the
	 * live ones. */
	for (int i = 0; i < n; i++) {
		struct eng_task *k = &e->tasks[i];
		int live = k->state != ET_GONE;
		sb_32(&b, k->rtid);
		sb_32(&b, k->rtgid);
		sb_32(&b, k->state);
		sb_32(&b, k->status);
		sb_64(&b, k->ctid);
		sb_put(&b, k->alt, sizeof k->alt);
		sb_32(&b, strlen(k->exe));
		sb_32(&b, k->entrylen);
		sb_put(&b, k->exe, strlen(k->exe));
		sb_put(&b, k->entry, k->entrylen);
		sb_32(&b, live);
		sb_32(&b, live ? th[i].xlen : 0);
		if (live) {
			sb_put(&b, &th[i].regs, sizeof th[i].regs);
			sb_64(&b, th[i].mask);
			sb_put(&b, th[i].xs, th[i].xlen);
		}
	}
	for (int i = 0; i < n; i++) {
		struct eng_task *k = &e->tasks[i];
		if (k->state != ET_GONE && k->rtid == k->rtgid && put_proc(s, e, k, nprocs, &b, why))
			goto out;
	}
	/* Replay's copies of the files mapped shared, by page. */
	sb_32(&b, e->fs.n);
	sb_32(&b, 0);
	for (int f = 0; f < e->fs.n; f++) {
		struct stat st;
		static uint8_t pg[PAGE];
		if (fstat(e->fs.f[f].fd, &st) < 0)
			die(EXIT_TRACE, "replay's copy of a file: %s", strerror(errno));
		sb_64(&b, e->fs.f[f].dev);
		sb_64(&b, e->fs.f[f].ino);
		sb_64(&b, st.st_size);
		size_t count_at = b.len;
		sb_64(&b, 0);
		uint64_t np = 0, size = st.st_size;
		/* Its data only: a memfd of 16 GiB with ten pages written
		 * costs ten pages. */
		for (uint64_t o = 0; o < size;) {
			int fd = e->fs.f[f].fd;
			off_t d = lseek(fd, o, SEEK_DATA), h = size;
			if (d < 0 && errno == ENXIO)
				break;
			if (d < 0)
				d = o;
			else if ((h = lseek(fd, d, SEEK_HOLE)) < 0)
				h = size;
			for (o = d / PAGE * PAGE; o < (uint64_t)h && o < size; o += PAGE) {
				memset(pg, 0, PAGE);
				if (pread(fd, pg, PAGE, o) < 0)
					die(EXIT_TRACE, "replay's copy of a file: %s", strerror(errno));
				if (!page_zero(pg)) {
					put_page(s, &b, o, pg);
					np++;
				}
			}
		}
		memcpy(b.p + count_at, &np, 8);
	}
	sb_64(&b, sum(b.p, b.len));
	char path[4400];
	snprintf(path, sizeof path, "%s/cp-%llu", s->tmp, (unsigned long long)e->cur.event);
	write_file(path, b.p, b.len);
	if (s->nents == s->entcap)
		s->ents = xrealloc(s->ents, (s->entcap = s->entcap * 2 + 16) * sizeof *s->ents);
	s->ents[s->nents++] = (struct seek_entry){ e->cur.event, b.len, sum(b.p, b.len) };
	s->bytes += b.len;
	rc = 0;
out:
	free(b.p);
	for (int i = 0; i < n; i++)
		free(th[i].xs);
	free(th);
	return rc;
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
		if (hash_file_known(ev, &h, &size) < 0)
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

/* Run one call in process p through the vDSO's syscall instruction. */
static int call(struct pt_proc *p, const struct user_regs_struct *r, uint64_t at, long nr,
		uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t *ret)
{
	uint64_t a[6] = { a0, a1, a2, a3, a4, 0 };
	return eng_inject(p, r, at, nr, a, ret, NULL);
}

/* A process of a checkpoint, as read from its file. */
struct cproc {
	uint32_t rtgid, nm;
	struct prctl_mm_map mm;
	uint64_t vdso;
	const uint8_t *act;	/* 64 struct sigaction of the kernel, 32 bytes each */
	size_t maps_at;		/* offset of its maps in the file */
	const uint8_t *ts;	/* patched rdtsc places, ns of 16 bytes */
	uint32_t ns;
	const uint8_t *cref;	/* references to counting's state (put_count()) */
	uint32_t cl;		/* its length */
	uint8_t *cnt;		/* the state, read from the page store */
};

/* Read a process's part of a checkpoint at r (its pages are only
 * skipped). Returns 0, or -1 when it is out of bounds. */
static int get_proc(struct rd *r, struct cproc *c)
{
	memset(c, 0, sizeof *c);
	c->rtgid = rd_32(r);
	c->nm = rd_32(r);
	__u64 *mmf[11] = { &c->mm.start_code, &c->mm.end_code, &c->mm.start_data, &c->mm.end_data,
			   &c->mm.start_brk, &c->mm.brk, &c->mm.start_stack, &c->mm.arg_start,
			   &c->mm.arg_end, &c->mm.env_start, &c->mm.env_end };
	for (int i = 0; i < 11; i++)
		*mmf[i] = rd_64(r);
	c->mm.exe_fd = -1;
	c->vdso = rd_64(r);
	c->act = rd_get(r, 64 * 32);
	c->maps_at = r->off;
	for (uint32_t i = 0; i < c->nm && !r->bad; i++) {
		uint64_t start = rd_64(r), end = rd_64(r);
		rd_get(r, 24);
		uint64_t nb = rd_64(r);
		if (end < start || nb > (end - start) / LISTSPAN + 2 || !rd_get(r, nb * PAGEREF))
			r->bad = 1;
	}
	c->ns = rd_32(r);
	rd_32(r);
	c->ts = rd_get(r, (size_t)c->ns * 16);
	c->cl = rd_32(r);
	rd_32(r);
	c->cref = rd_get(r, (size_t)(c->cl + LISTMAX - 1) / LISTMAX * CNTREF);
	return r->bad ? -1 : 0;
}

/* Read the n bytes stored at off (clen bytes) into out and check them
 * against their hash h0, h1. Returns 0 or -1. */
static int get_blob(int pfd, ZSTD_DCtx *dctx, uint64_t off, uint32_t clen, uint64_t h0, uint64_t h1,
		    uint8_t *out, size_t n)
{
	static uint8_t cb[LISTMAX * 2];
	uint64_t h[2];
	size_t d;
	if (clen > sizeof cb || pread(pfd, cb, clen, off) != (ssize_t)clen ||
	    ZSTD_isError(d = ZSTD_decompressDCtx(dctx, out, n, cb, clen)) || d != n)
		return -1;
	blob_hash(out, n, h);
	return h[0] == h0 && h[1] == h1 ? 0 : -1;
}

static int get_page(int pfd, ZSTD_DCtx *dctx, uint64_t off, uint32_t clen, uint64_t h0, uint64_t h1,
		    uint8_t *pg)
{
	return get_blob(pfd, dctx, off, clen, h0, h1, pg, PAGE);
}

/* Counting's state of process c, read into c->cnt from the pieces
 * put_count() stored. Returns 0 or -1. */
static int get_count(int pfd, ZSTD_DCtx *dctx, struct cproc *c)
{
	c->cnt = xmalloc(c->cl ? c->cl : 1);
	const uint8_t *q = c->cref;
	for (uint32_t o = 0; o < c->cl; o += LISTMAX, q += CNTREF) {
		uint32_t k = c->cl - o < LISTMAX ? c->cl - o : LISTMAX;
		if (get32(q + 28) != k ||
		    get_blob(pfd, dctx, get64(q + 16), get32(q + 24), get64(q), get64(q + 8), c->cnt + o, k) < 0)
			return -1;
	}
	return 0;
}

/* Make process p (a fork of the freshly started program, registers
 * base) the checkpoint's process c: its mappings, brk, signal handlers,
 * pages and vDSO. Returns 0, or -1 with why set. */
static int shape(struct pt_proc *p, const struct user_regs_struct *base, const uint8_t *b,
		 const struct cproc *c, const struct emufs *fs, int pfd, ZSTD_DCtx *dctx,
		 const char *path, const char *ppath, char *why, size_t wlen)
{
	struct map *fresh = NULL;
	int rc = -1;
	int nf = read_maps(p->pid, &fresh);
	uint64_t fvdso = 0, at = nf > 0 ? vdso_syscall(p, fresh, nf, &fvdso) : 0, ret;
	if (nf < 0 || !at || fvdso != c->vdso) {
		fail(why, wlen, "%s: the vDSO is at 0x%llx here, at 0x%llx in the checkpoint", path,
		     (unsigned long long)fvdso, (unsigned long long)c->vdso);
		goto out;
	}
	for (int i = 0; i < nf; i++)
		if (!fresh[i].special &&
		    (call(p, base, at, SYS_munmap, fresh[i].start, fresh[i].end - fresh[i].start, 0, 0,
			  0, &ret) < 0 || ret != 0)) {
			fail(why, wlen, "%s: cannot unmap 0x%llx in the new process", path,
			     (unsigned long long)fresh[i].start);
			goto out;
		}
	/* Map every range read-write first, to fill it. */
	struct rd r = { b, c->ts - b, c->maps_at, 0 };
	uint64_t scratch = 0;
	for (uint32_t i = 0; i < c->nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		rd_32(&r);
		uint32_t fl = rd_32(&r);
		rd_get(&r, 16);
		uint64_t np = rd_64(&r);
		rd_get(&r, np * PAGEREF);
		if (fl & MAPF_EMU)
			continue;	/* mapped below, once there is scratch memory */
		/* No reserve: a reservation of a terabyte, PROT_NONE when
		 * recorded, is read-write here for a moment. */
		int flags = MAP_FIXED | MAP_ANONYMOUS | (fl & MAPF_SHARED ? MAP_SHARED : MAP_PRIVATE) |
			    (fl & MAPF_STACK ? MAP_GROWSDOWN : 0) | MAP_NORESERVE;
		if (call(p, base, at, SYS_mmap, start, end - start, PROT_READ | PROT_WRITE, flags, -1,
			 &ret) < 0 || ret != start) {
			fail(why, wlen, "%s: cannot map 0x%llx-0x%llx in the new process", path,
			     (unsigned long long)start, (unsigned long long)end);
			goto out;
		}
		if (!scratch)
			scratch = start;
	}
	/* brk and the other mm fields in one call; unlike the single
	 * PR_SET_MM fields, PR_SET_MM_MAP needs no CAP_SYS_RESOURCE. */
	if (!scratch || pt_write(p, scratch, &c->mm, sizeof c->mm) < 0 ||
	    call(p, base, at, SYS_prctl, PR_SET_MM, PR_SET_MM_MAP, scratch, sizeof c->mm, 0, &ret) < 0 ||
	    ret) {
		fail(why, wlen, "%s: cannot set brk to 0x%llx: %s", path, (unsigned long long)c->mm.brk,
		     strerror(-(int64_t)ret));
		goto out;
	}
	/* Signal handlers, through scratch memory that the pages written
	 * below overwrite (or that is zeroed). */
	static const uint8_t zero[sizeof c->mm];
	for (int sig = 1; sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (pt_write(p, scratch, c->act + (sig - 1) * 32, 32) < 0 ||
		    call(p, base, at, SYS_rt_sigaction, sig, scratch, 0, 8, 0, &ret) < 0 || ret) {
			fail(why, wlen, "%s: cannot set the handler of signal %d", path, sig);
			goto out;
		}
	}
	/* Mappings of replay's copies of files: the copy itself, opened
	 * by the process through /proc, as the engine maps them. */
	r.off = c->maps_at;
	for (uint32_t i = 0; i < c->nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		rd_32(&r);
		uint32_t fl = rd_32(&r), f = rd_32(&r);
		rd_32(&r);
		uint64_t off = rd_64(&r), np = rd_64(&r), fd = -EIO, cr;
		rd_get(&r, np * PAGEREF);
		if (!(fl & MAPF_EMU))
			continue;
		char fpath[64];
		snprintf(fpath, sizeof fpath, "/proc/%d/fd/%d", getpid(), f && f <= (uint32_t)fs->n ? fs->f[f - 1].fd : -1);
		if (!f || f > (uint32_t)fs->n || pt_write(p, scratch, fpath, strlen(fpath) + 1) < 0 ||
		    call(p, base, at, SYS_openat, (uint64_t)(int64_t)AT_FDCWD, scratch, O_RDWR | O_CLOEXEC, 0,
			 0, &fd) < 0 || (int64_t)fd < 0 ||
		    eng_inject(p, base, at, SYS_mmap,
			       (uint64_t[6]){ start, end - start, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
					      fd, off },
			       &ret, NULL) < 0 ||
		    call(p, base, at, SYS_close, fd, 0, 0, 0, 0, &cr) < 0 || ret != start) {
			fail(why, wlen, "%s: cannot map replay's copy of a file at 0x%llx", path,
			     (unsigned long long)start);
			goto out;
		}
	}
	pt_write(p, scratch, zero, sizeof zero);
	/* The pages, by list block, each checked against its content hash. */
	static uint8_t pg[PAGE], list[LISTMAX];
	r.off = c->maps_at;
	for (uint32_t i = 0; i < c->nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		rd_get(&r, 24);
		uint64_t nb = rd_64(&r);
		for (uint64_t k = 0; k < nb; k++) {
			uint64_t span = rd_64(&r), h0 = rd_64(&r), h1 = rd_64(&r), off = rd_64(&r);
			uint32_t clen = rd_32(&r), np = rd_32(&r);
			if (!np || np > LISTMAX / PAGEREF ||
			    get_blob(pfd, dctx, off, clen, h0, h1, list, (size_t)np * PAGEREF) < 0) {
				fail(why, wlen, "%s: damaged list block at offset %llu", ppath,
				     (unsigned long long)off);
				goto out;
			}
			for (uint32_t j = 0; j < np; j++) {
				const uint8_t *q = list + (size_t)j * PAGEREF;
				uint64_t addr = get64(q), poff = get64(q + 24);
				if (addr < start || addr >= end || addr % PAGE || addr / LISTSPAN * LISTSPAN != span) {
					fail(why, wlen, "%s: damaged (a page outside its mapping)", path);
					goto out;
				}
				if (get_page(pfd, dctx, poff, get32(q + 32), get64(q + 8), get64(q + 16), pg) < 0) {
					fail(why, wlen, "%s: damaged page at offset %llu", ppath,
					     (unsigned long long)poff);
					goto out;
				}
				if (pt_write(p, addr, pg, PAGE) < 0) {
					fail(why, wlen, "%s: cannot write the page at 0x%llx", path,
					     (unsigned long long)addr);
					goto out;
				}
			}
		}
	}
	r.off = c->maps_at;
	for (uint32_t i = 0; i < c->nm; i++) {
		uint64_t start = rd_64(&r), end = rd_64(&r);
		uint32_t prot = rd_32(&r);
		rd_get(&r, 20);
		uint64_t np = rd_64(&r);
		rd_get(&r, np * PAGEREF);
		if (prot != (PROT_READ | PROT_WRITE) &&
		    (call(p, base, at, SYS_mprotect, start, end - start, prot, 0, 0, &ret) < 0 || ret)) {
			fail(why, wlen, "%s: cannot protect 0x%llx", path, (unsigned long long)start);
			goto out;
		}
	}
	/* The vDSO is the fresh process's own: its functions become system
	 * calls, as rec made them in the recorded process (vdso.h). */
	for (int i = 0; i < nf; i++)
		if (fresh[i].vdso)
			vdso_patch(p, fresh[i].start, fresh[i].end - fresh[i].start, NULL, NULL);
	rc = 0;
out:
	free_maps(fresh, nf > 0 ? nf : 0);
	return rc;
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
	int rc = -1, pfd = -1, made = 0;
	uint32_t n = 0, nprocs = 0;
	ZSTD_DCtx *dctx = NULL;
	struct eng_task *tasks = NULL;
	struct eng_snap_thread *th = NULL;
	struct cproc *procs = NULL;
	pid_t *pids = NULL;
	uint32_t *rtgids = NULL;
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
	uint32_t held = rd_32(&r);
	n = rd_32(&r);
	uint32_t ti = rd_32(&r);
	nprocs = rd_32(&r);
	get_rec(&r, &e->cur, &e->curbuf, &e->curcap);
	if (held)
		get_rec(&r, &e->ahead, &e->aheadbuf, &e->aheadcap);
	uint32_t exelen = rd_32(&r);
	const uint8_t *exe = rd_get(&r, exelen);
	if (r.bad || ev != ent->event || e->cur.event != ev || exelen >= sizeof e->exe || !n ||
	    n > 100000 || ti >= n || !nprocs || nprocs > n) {
		fail(why, wlen, "%s: damaged (bad layout)", path);
		goto out;
	}
	tasks = xmalloc(n * sizeof *tasks);
	memset(tasks, 0, n * sizeof *tasks);
	th = xmalloc(n * sizeof *th);
	memset(th, 0, n * sizeof *th);
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		struct eng_task *k = &tasks[i];
		k->rtid = rd_32(&r);
		k->rtgid = rd_32(&r);
		k->state = rd_32(&r);
		k->status = rd_32(&r);
		k->ctid = rd_64(&r);
		for (int j = 0; j < 3; j++)
			k->alt[j] = rd_64(&r);
		uint32_t el = rd_32(&r);
		k->entrylen = k->entrycap = rd_32(&r);
		const uint8_t *q = rd_get(&r, el), *en = rd_get(&r, k->entrylen);
		uint32_t live = rd_32(&r), xl = rd_32(&r);
		const uint8_t *rg = live ? rd_get(&r, sizeof th[i].regs) : NULL;
		uint64_t mask = live ? rd_64(&r) : 0;
		const uint8_t *xs = rd_get(&r, xl);
		if (r.bad || el >= sizeof k->exe || k->state > ET_GONE || live != (k->state != ET_GONE) ||
		    (live && xl == 0)) {
			r.bad = 1;
			break;
		}
		memcpy(k->exe, q, el);
		k->entry = k->entrylen ? xmalloc(k->entrylen) : NULL;
		if (k->entrylen)
			memcpy(k->entry, en, k->entrylen);
		if (live) {
			memcpy(&th[i].regs, rg, sizeof th[i].regs);
			th[i].mask = mask;
			th[i].xs = xmalloc(xl);
			memcpy(th[i].xs, xs, xl);
			th[i].xlen = xl;
		}
	}
	procs = xmalloc(nprocs * sizeof *procs);
	memset(procs, 0, nprocs * sizeof *procs);
	for (uint32_t j = 0; j < nprocs && !r.bad; j++)
		get_proc(&r, &procs[j]);
	if (r.bad) {
		fail(why, wlen, "%s: damaged (bad layout)", path);
		goto out;
	}
	pfd = open(ppath, O_RDONLY | O_CLOEXEC);
	char hdr[16];
	if (pfd < 0 || pread(pfd, hdr, 16, 0) != 16 || memcmp(hdr, SEEK_PAGES_MAGIC, 8) ||
	    get32((uint8_t *)hdr + 8) != SEEK_VERSION) {
		fail(why, wlen, "%s: %s", ppath, pfd < 0 ? strerror(errno) : "not a page store of this version");
		goto out;
	}
	dctx = ZSTD_createDCtx();
	for (uint32_t j = 0; j < nprocs; j++)
		if (!dctx || get_count(pfd, dctx, &procs[j]) < 0) {
			fail(why, wlen, "%s: damaged counting state of process %u", ppath, procs[j].rtgid);
			goto out;
		}
	/* Replay's copies of the files mapped shared, made again. */
	emufs_close(&e->fs);
	uint32_t nfiles = rd_32(&r);
	rd_32(&r);
	for (uint32_t f = 0; f < nfiles; f++) {
		static uint8_t pg[PAGE];
		uint64_t dev = rd_64(&r), ino = rd_64(&r), size = rd_64(&r), np = rd_64(&r);
		int i = r.bad || np > size / PAGE + 1 ? -1 : emufs_new(&e->fs, dev, ino);
		if (i < 0 || ftruncate(e->fs.f[i].fd, size) < 0) {
			fail(why, wlen, "%s: cannot make replay's copy of a file", path);
			goto out;
		}
		for (uint64_t k = 0; k < np; k++) {
			uint64_t addr = rd_64(&r), h0 = rd_64(&r), h1 = rd_64(&r), off = rd_64(&r);
			uint32_t clen = rd_32(&r);
			rd_32(&r);
			if (r.bad || get_page(pfd, dctx, off, clen, h0, h1, pg) < 0 || addr >= size ||
			    pwrite(e->fs.f[i].fd, pg, size - addr < PAGE ? size - addr : PAGE, addr) < 0) {
				fail(why, wlen, "%s: damaged page at offset %llu", ppath, (unsigned long long)off);
				goto out;
			}
		}
	}
	if (r.bad) {
		fail(why, wlen, "%s: damaged (bad layout)", path);
		goto out;
	}
	/* Each process is a fork of the freshly started one, reshaped. */
	pids = xmalloc(nprocs * sizeof *pids);
	rtgids = xmalloc(nprocs * sizeof *rtgids);
	struct user_regs_struct base;
	pt_getregs(&e->p, &base);
	for (made = 0; made < (int)nprocs; made++) {
		struct pt_proc c = { .pid = eng_fork(&e->p, &base), .memfd = -1 };
		if (c.pid < 0) {
			fail(why, wlen, "%s: cannot fork the new process: %s", path, strerror(errno));
			goto out;
		}
		pids[made] = c.pid;
		rtgids[made] = procs[made].rtgid;
		pt_reopen_mem(&c);
		int k = shape(&c, &base, b, &procs[made], &e->fs, pfd, dctx, path, ppath, why, wlen);
		close(c.memfd);
		if (k < 0) {
			made++;
			goto out;
		}
	}
	/* Each process once, with its first thread, and each live thread
	 * in one of them: eng_adopt() counts on it. */
	for (uint32_t j = 0; j < nprocs; j++) {
		uint32_t first = 0;
		for (uint32_t i = 0; i < n; i++)
			first += tasks[i].state != ET_GONE && tasks[i].rtid == procs[j].rtgid &&
				 tasks[i].rtgid == procs[j].rtgid;
		for (uint32_t i = 0; i < j; i++)
			first += procs[i].rtgid == procs[j].rtgid ? 2 : 0;
		if (first != 1) {
			fail(why, wlen, "%s: damaged (process %u)", path, procs[j].rtgid);
			goto out;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = 0;
		while (j < nprocs && procs[j].rtgid != tasks[i].rtgid)
			j++;
		if (tasks[i].state != ET_GONE && j == nprocs) {
			fail(why, wlen, "%s: damaged (thread %u)", path, tasks[i].rtid);
			goto out;
		}
	}
	eng_adopt(e, tasks, n, ti, rtgids, pids, nprocs, th);
	tasks = NULL;
	made = 0;
	for (uint32_t j = 0; j < nprocs; j++) {
		tsc_import(procs[j].rtgid, procs[j].ts, (size_t)procs[j].ns * 16);
		count_import(procs[j].rtgid, procs[j].cnt, procs[j].cl);
	}
	/* The engine's side: the event replayed last, and the reader just
	 * after what it had read. */
	if (trace_seek(&e->r, &pos) < 0) {
		fail(why, wlen, "%s", e->r.err);
		goto out;
	}
	e->held = held;
	memcpy(e->exe, exe, exelen);
	e->exe[exelen] = 0;
	e->done = 0;
	rc = 0;
out:
	for (int j = 0; j < made; j++) {
		struct pt_proc c = { .pid = pids[j], .memfd = -1 };
		pt_kill(&c);
	}
	if (tasks)
		for (uint32_t i = 0; i < n; i++)
			free(tasks[i].entry);
	free(tasks);
	for (uint32_t i = 0; th && i < n; i++)
		free(th[i].xs);
	free(th);
	for (uint32_t j = 0; procs && j < nprocs; j++)
		free(procs[j].cnt);
	free(procs);
	free(pids);
	free(rtgids);
	if (pfd >= 0)
		close(pfd);
	ZSTD_freeDCtx(dctx);
	free(b);
	return rc;
}
