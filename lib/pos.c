/* pos.c: taking a thread's memory state as hashed blocks (rec) and making
 * a replayed process's memory match it again (replay); see pos.h. */
#include "pos.h"
#include "bufabi.h"
#include "maps.h"
#include "pagemap.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/userfaultfd.h>
#include <unistd.h>

/* PAGEMAP_SCAN (lib/pagemap.h) finds the untouched parts of huge
 * reservations (the shadow memory of AddressSanitizer: terabytes) at no
 * cost, and with a userfaultfd the pages written since the last scan. */

/* Without PAGEMAP_SCAN (or with REWIND_NO_PAGEMAP_SCAN=1) every writable
 * byte is read; beyond this much, rec gives up instead of hanging. */
#define READ_ALL_MAX (64ull << 30)

/* Mappings tracked with write protection are at most this large: the
 * kernel takes minutes to protect a reservation of terabytes (the
 * shadow memory of AddressSanitizer), scanned whole each time instead. */
#define TRACK_MAX (64ull << 30)

/* The pagemap of p for scans, or -1 when the kernel has no PAGEMAP_SCAN. */
static int scan_open(pid_t pid)
{
	if (env_flag("REWIND_NO_PAGEMAP_SCAN"))
		return -1;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/pagemap", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct pm_region r;
	struct pm_scan_arg a = { .size = sizeof a, .start = 0, .end = 4096,
				 .vec = (uintptr_t)&r, .vec_len = 1,
				 .category_anyof_mask = PM_PRESENT | PM_SWAPPED,
				 .return_mask = PM_PRESENT | PM_SWAPPED };
	/* A scan that was interrupted (a loaded machine) is asked again:
	 * taken for a kernel without it, a large address space (ASan's
	 * shadow) would be refused. */
	int k = -1;
	for (int tries = 0; fd >= 0 && tries < 20 && k < 0; tries++)
		if ((k = ioctl(fd, PM_SCAN, &a)) < 0 && errno != EINTR && errno != EAGAIN)
			break;
	if (fd >= 0 && k < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Fill r[0..n) with the present or swapped ranges in [lo, hi), from the
 * first one at or after lo; returns how many, 0 when none is left, -1 on
 * error. *next is where to go on from. */
static int scan(int fd, uint64_t lo, uint64_t hi, struct pm_region *r, int n, uint64_t *next)
{
	struct pm_scan_arg a = { .size = sizeof a, .start = lo, .end = hi,
				 .vec = (uintptr_t)r, .vec_len = n,
				 .category_anyof_mask = PM_PRESENT | PM_SWAPPED,
				 .return_mask = PM_PRESENT | PM_SWAPPED };
	int k = ioctl(fd, PM_SCAN, &a);
	*next = a.walk_end ? a.walk_end : hi;
	return k;
}

static uint64_t hash_of(const uint8_t *buf, size_t n)
{
	return hash_final(hash_update(HASH_INIT, buf, n), n);
}

static int all_zero(const uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (buf[i])
			return 0;
	return 1;
}

/* Read a block; unreadable bytes count as zeros (both runs see the same). */
static void read_block(struct pt_proc *p, uint64_t addr, uint64_t len, uint8_t *buf)
{
	ssize_t n = pt_read(p, addr, buf, len);
	if (n < (ssize_t)len)
		memset(buf + (n > 0 ? n : 0), 0, len - (n > 0 ? n : 0));
}

static void add_block(struct pos *out, int *cap, uint64_t a, uint64_t len, uint64_t hash,
		      const uint8_t *buf)
{
	if (out->nb == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		out->b = xrealloc(out->b, *cap * sizeof *out->b);
		out->full = xrealloc(out->full, *cap);
	}
	out->b[out->nb] = (struct pos_block){ a, len, hash };
	out->full[out->nb] = buf && !all_zero(buf, len);
	out->nb++;
}

/* Hash the blocks of [lo, hi) from a on. */
static void hash_blocks(struct pt_proc *p, struct pos *out, int *cap, uint64_t a, uint64_t hi)
{
	static uint8_t buf[POS_BLOCK];
	for (; a < hi; a += POS_BLOCK) {
		uint64_t len = hi - a < POS_BLOCK ? hi - a : POS_BLOCK;
		read_block(p, a, len, buf);
		add_block(out, cap, a, len, hash_of(buf, len), buf);
	}
}

/* Regions of [lo, hi) in pages of the given categories (PM_*), added
 * to the growing array *r of *n (room for *cap). 0 or -1. */
static int collect(int fd, uint64_t lo, uint64_t hi, uint64_t cats, struct pm_region **r, int *n,
		   int *cap)
{
	for (uint64_t at = lo, next; at < hi; at = next) {
		if (*cap - *n < 64) {
			*cap = *cap ? 2 * *cap : 128;
			*r = xrealloc(*r, *cap * sizeof **r);
		}
		struct pm_scan_arg a = { .size = sizeof a, .start = at, .end = hi,
					 .vec = (uintptr_t)(*r + *n), .vec_len = 64,
					 .category_anyof_mask = cats, .return_mask = cats };
		int k = ioctl(fd, PM_SCAN, &a);
		if (k < 0)
			return -1;
		*n += k;
		next = a.walk_end ? a.walk_end : hi;
		if (next <= at)
			break;
	}
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct pm_region *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* A mapping [lo, hi) whose pages with contents are in r[0..n) (sorted
 * by start, may overlap): the blocks holding one are hashed. With
 * zeros (an anonymous private mapping), each run of blocks without one
 * (zeros, as the kernel would fill them) is one POS_ZERO entry; without
 * (a file mapping, whose other pages read as the file), none. */
static void take_regions(struct pt_proc *p, struct pos *out, int *cap, uint64_t lo, uint64_t hi,
			 const struct pm_region *r, int n, int zeros)
{
	uint64_t a = lo;	/* the blocks before a are taken */
	for (int i = 0; i < n; i++) {
		uint64_t first = lo + (r[i].start - lo) / POS_BLOCK * POS_BLOCK;
		uint64_t end = lo + (r[i].end - lo + POS_BLOCK - 1) / POS_BLOCK * POS_BLOCK;
		if (end > hi)
			end = hi;
		if (first > a) {
			if (zeros)
				add_block(out, cap, a, first - a, POS_ZERO, NULL);
			a = first;
		}
		if (end > a) {
			hash_blocks(p, out, cap, a, end);
			a = end;
		}
	}
	if (a < hi && zeros)
		add_block(out, cap, a, hi - a, POS_ZERO, NULL);
}

/* A mapping [lo, hi): the pages present or swapped are its contents
 * (anon: an anonymous private mapping, zeros elsewhere; else a file
 * mapping, the file elsewhere, as replay maps it too). */
static int take_sparse(struct pt_proc *p, int fd, struct pos *out, int *cap, uint64_t lo,
		       uint64_t hi, int anon)
{
	struct pm_region *r = NULL;
	int n = 0, rcap = 0, rc = collect(fd, lo, hi, PM_PRESENT | PM_SWAPPED, &r, &n, &rcap);
	if (rc == 0)
		take_regions(p, out, cap, lo, hi, r, n, anon);
	free(r);
	return rc;
}

/* Register the private anonymous mapping [lo, hi) with uffd for
 * write protection and protect all of it: from now on the pages written
 * there are the ones scans report. 0 or -1. */
static int wp_arm(int uffd, uint64_t lo, uint64_t hi)
{
	struct uffdio_register reg = { .range = { lo, hi - lo }, .mode = UFFDIO_REGISTER_MODE_WP };
	struct uffdio_writeprotect wp = { .range = { lo, hi - lo }, .mode = UFFDIO_WRITEPROTECT_MODE_WP };
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		return -1;
	if (ioctl(uffd, UFFDIO_WRITEPROTECT, &wp) < 0) {
		ioctl(uffd, UFFDIO_UNREGISTER, &reg.range);
		return -1;
	}
	return 0;
}

/* Take the mapping [lo, hi) whole, as take_sparse, and arm it (wp_arm).
 * Protecting puts a marker in each empty page, which scans report as
 * swapped: the pages with contents are those present or swapped before,
 * and those present after (made meanwhile), or a thread stack of 8 MiB
 * would be read whole, each time one is new. */
static int take_arming(struct pt_proc *p, int fd, int uffd, struct pos *out, int *cap,
		       uint64_t lo, uint64_t hi)
{
	struct pm_region *r = NULL;
	int n = 0, rcap = 0, rc = collect(fd, lo, hi, PM_PRESENT | PM_SWAPPED, &r, &n, &rcap);
	if (rc == 0 && wp_arm(uffd, lo, hi) == 0) {
		int n0 = n;
		rc = collect(fd, lo, hi, PM_PRESENT, &r, &n, &rcap);
		if (n > n0)
			qsort(r, n, sizeof *r, by_start);
	}
	if (rc == 0)
		take_regions(p, out, cap, lo, hi, r, n, 1);
	free(r);
	return rc;
}

/* The blocks of the pages of [lo, hi) written since the last scan, each
 * protected again. 0, or -1 when [lo, hi) is not a mapping registered
 * with write protection (or the scan failed): then it must be taken
 * whole, as its pages written but not reported may have been protected. */
static int take_written(struct pt_proc *p, int fd, struct pos *out, int *cap, uint64_t lo,
			uint64_t hi)
{
	struct pm_region r[64];
	uint64_t done = lo;	/* the blocks before it are taken */
	for (uint64_t at = lo, next; at < hi; at = next) {
		struct pm_scan_arg a = { .size = sizeof a, .start = at, .end = hi,
					 .flags = PM_WP_MATCHING | PM_CHECK_WPASYNC,
					 .vec = (uintptr_t)r, .vec_len = 64,
					 .category_mask = PM_WRITTEN,
					 .return_mask = PM_WRITTEN | PM_PRESENT | PM_SWAPPED };
		int k = ioctl(fd, PM_SCAN, &a);
		if (k < 0)
			return -1;
		next = a.walk_end ? a.walk_end : hi;
		/* Whole blocks from the mapping's start, as a whole take cuts
		 * them: a block changed since the last take is then the
		 * same block as there, and recorded as a difference. */
		for (int i = 0; i < k; i++) {
			uint64_t first = lo + (r[i].start - lo) / POS_BLOCK * POS_BLOCK;
			uint64_t end = lo + (r[i].end - lo + POS_BLOCK - 1) / POS_BLOCK * POS_BLOCK;
			if (first < done)
				first = done;
			if (end > hi)
				end = hi;
			/* Written and empty now (MADV_DONTNEED: a thread's
			 * stack as it ends): the whole blocks inside are a
			 * zero run, not read. */
			uint64_t zs = lo + (r[i].start - lo + POS_BLOCK - 1) / POS_BLOCK * POS_BLOCK;
			uint64_t ze = r[i].end >= hi ? hi : lo + (r[i].end - lo) / POS_BLOCK * POS_BLOCK;
			if (!(r[i].categories & (PM_PRESENT | PM_SWAPPED)) && zs < ze) {
				if (zs > first)
					hash_blocks(p, out, cap, first, zs);
				add_block(out, cap, zs, ze - zs, POS_ZERO, NULL);
				first = done = ze;
			}
			if (end > first) {
				hash_blocks(p, out, cap, first, end);
				done = end;
			}
		}
		if (next <= at)
			break;
	}
	return 0;
}

int pos_take_since(struct pt_proc *p, int uffd, struct pos *out)
{
	struct maps_line m;
	memset(out, 0, sizeof *out);
	FILE *f = maps_open(p->pid);
	if (!f)
		return -1;
	int cap = 0, fd = scan_open(p->pid), rc = 0;
	uint64_t total = 0;
	while (rc == 0 && maps_next(f, &m)) {
		uint64_t lo = m.lo, hi = m.hi;
		if (m.perm[1] != 'w' || !strcmp(m.name, "[vvar]") || !strcmp(m.name, "[vsyscall]"))
			continue;
		/* The syscall buffer differs between rec and replay by
		 * design (bufabi.h); what the program sees is elsewhere. */
		if (lo >= BUF_ADDR && hi <= BUF_ADDR + BUF_SIZE)
			continue;
		/* Untouched pages of an anonymous private mapping read as
		 * zeros; those of a file mapping read as the file. */
		int anon = m.perm[3] == 'p' && m.ino == 0 && m.name[0] != '/';
		if (anon && fd >= 0 && uffd >= 0 && hi - lo <= TRACK_MAX) {
			int nb = out->nb;
			if (take_written(p, fd, out, &cap, lo, hi) == 0)
				continue;
			/* New since the last take (or the scan failed): from
			 * here on tracked, and taken whole this once. */
			out->nb = nb;
			rc = take_arming(p, fd, uffd, out, &cap, lo, hi);
			continue;
		}
		/* A file mapping (a memfd of 16 GiB, a sparse file): its
		 * pages not present read as the file, the same in replay. */
		if (fd >= 0) {
			rc = take_sparse(p, fd, out, &cap, lo, hi, anon);
			continue;
		}
		total += hi - lo;
		if (total > READ_ALL_MAX) {
			errno = EFBIG;
			rc = -1;
			break;
		}
		hash_blocks(p, out, &cap, lo, hi);
	}
	if (fd >= 0)
		close(fd);
	fclose(f);
	if (rc < 0)
		pos_free(out);
	return rc;
}

int pos_read(struct pt_proc *p, const struct pos_block *b, uint8_t *buf)
{
	read_block(p, b->addr, b->len, buf);
	return hash_of(buf, b->len) == b->hash;
}

void pos_fill(struct pt_proc *p, struct pos *ps)
{
	if (!ps->data)
		ps->data = xmalloc((ps->nb ? ps->nb : 1) * sizeof *ps->data);
	for (int i = 0; i < ps->nb; i++) {
		struct pos_block *b = &ps->b[i];
		ps->data[i] = NULL;
		if (b->hash == POS_ZERO)
			continue;
		uint8_t *d = xmalloc(b->len);
		read_block(p, b->addr, b->len, d);
		b->hash = hash_of(d, b->len);
		ps->full[i] = !all_zero(d, b->len);
		if (ps->full[i])
			ps->data[i] = d;
		else
			free(d);
	}
}

void pos_free(struct pos *ps)
{
	for (int i = 0; ps->data && i < ps->nb; i++)
		free(ps->data[i]);
	free(ps->data);
	free(ps->full);
	free(ps->b);
	memset(ps, 0, sizeof *ps);
}

static uint64_t shadow_key(int pid, uint64_t addr)
{
	return (addr ^ (uint64_t)pid * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
}

static size_t shadow_slot(const struct pos_shadow *s, int pid, uint64_t addr)
{
	uint64_t k = shadow_key(pid, addr);
	size_t i = (k >> 20) & (s->cap - 1);
	while (s->slot[i].data && (s->slot[i].addr != addr || s->slot[i].pid != pid))
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* A copy keeps only the pages of its block that are not all zeros
 * (mask: bit k for page k), back to back: a heap's blocks hold many. */
#define SHADOW_PAGE 4096

int pos_shadow_has(const struct pos_shadow *s, int pid, uint64_t addr, uint32_t len)
{
	if (!s->cap)
		return 0;
	size_t i = shadow_slot(s, pid, addr);
	return s->slot[i].data && s->slot[i].len == len;
}

const uint8_t *pos_shadow_get(const struct pos_shadow *s, int pid, uint64_t addr, uint32_t len,
			      uint64_t *hash)
{
	static uint8_t out[POS_BLOCK];
	if (!pos_shadow_has(s, pid, addr, len))
		return NULL;
	size_t i = shadow_slot(s, pid, addr);
	const uint8_t *d = s->slot[i].data;
	for (uint32_t at = 0, k = 0; at < len; at += SHADOW_PAGE, k++) {
		uint32_t n = len - at < SHADOW_PAGE ? len - at : SHADOW_PAGE;
		if (s->slot[i].mask >> k & 1) {
			memcpy(out + at, d, n);
			d += n;
		} else {
			memset(out + at, 0, n);
		}
	}
	*hash = s->slot[i].hash;
	return out;
}

void pos_shadow_set(struct pos_shadow *s, int pid, uint64_t addr, uint32_t len, uint64_t hash,
		    const uint8_t *data)
{
	if (2 * (s->n + 1) > s->cap) {
		struct pos_shadow o = *s;
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->slot = calloc(s->cap, sizeof *s->slot);
		if (!s->slot)
			die(EXIT_TRACE, "out of memory");
		for (size_t i = 0; i < o.cap; i++)
			if (o.slot[i].data)
				s->slot[shadow_slot(s, o.slot[i].pid, o.slot[i].addr)] = o.slot[i];
		free(o.slot);
	}
	size_t i = shadow_slot(s, pid, addr);
	if (!s->slot[i].data) {
		if (s->bytes + len > POS_SHADOW_MAX)
			return;
		s->n++;
	} else {
		s->bytes -= s->slot[i].len;
	}
	uint32_t mask = 0, kept = 0;
	for (uint32_t at = 0, k = 0; at < len; at += SHADOW_PAGE, k++) {
		uint32_t n = len - at < SHADOW_PAGE ? len - at : SHADOW_PAGE;
		if (!all_zero(data + at, n)) {
			mask |= 1u << k;
			kept += n;
		}
	}
	free(s->slot[i].data);
	uint8_t *d = s->slot[i].data = xmalloc(kept ? kept : 1);
	for (uint32_t at = 0, k = 0; at < len; at += SHADOW_PAGE, k++) {
		uint32_t n = len - at < SHADOW_PAGE ? len - at : SHADOW_PAGE;
		if (mask >> k & 1) {
			memcpy(d, data + at, n);
			d += n;
		}
	}
	s->bytes += len;
	s->slot[i].pid = pid;
	s->slot[i].addr = addr;
	s->slot[i].len = len;
	s->slot[i].mask = mask;
	s->slot[i].hash = hash;
}

void pos_shadow_forget(struct pos_shadow *s, int pid)
{
	struct pos_shadow o = *s;
	int any = 0;
	for (size_t i = 0; i < o.cap && !any; i++)
		any = o.slot[i].data && o.slot[i].pid == pid;
	if (!any)
		return;
	s->slot = calloc(o.cap, sizeof *s->slot);
	if (!s->slot)
		die(EXIT_TRACE, "out of memory");
	s->n = 0;
	for (size_t i = 0; i < o.cap; i++) {
		if (!o.slot[i].data)
			continue;
		if (o.slot[i].pid == pid) {
			s->bytes -= o.slot[i].len;
			free(o.slot[i].data);
			continue;
		}
		s->slot[shadow_slot(s, o.slot[i].pid, o.slot[i].addr)] = o.slot[i];
		s->n++;
	}
	free(o.slot);
}

/* Make [a, b) of p zeros where it is not. */
static int zero_pages(struct pt_proc *p, uint64_t a, uint64_t b, char *why, size_t wlen)
{
	static const uint8_t zeros[POS_BLOCK];
	static uint8_t buf[POS_BLOCK];
	for (; a < b; a += POS_BLOCK) {
		uint64_t len = b - a < POS_BLOCK ? b - a : POS_BLOCK;
		read_block(p, a, len, buf);
		if (!all_zero(buf, len) && pt_write(p, a, zeros, len) < 0) {
			snprintf(why, wlen, "cannot write memory at 0x%llx", (unsigned long long)a);
			return -1;
		}
	}
	return 0;
}

/* Make the zero run [lo, hi) of p so: the pages present or swapped
 * there, or all of it without PAGEMAP_SCAN. */
static int zero_range(struct pt_proc *p, uint64_t lo, uint64_t hi, char *why, size_t wlen)
{
	struct pm_region r[64];
	int fd = scan_open(p->pid), rc = 0;
	if (fd < 0) {
		if (hi - lo <= READ_ALL_MAX)
			return zero_pages(p, lo, hi, why, wlen);
		snprintf(why, wlen, "cannot check %llu bytes at 0x%llx without PAGEMAP_SCAN",
			 (unsigned long long)(hi - lo), (unsigned long long)lo);
		return -1;
	}
	for (uint64_t at = lo, next; rc == 0 && at < hi; at = next) {
		int k = scan(fd, at, hi, r, 64, &next);
		if (k < 0) {
			snprintf(why, wlen, "cannot scan the pages at 0x%llx: %s",
				 (unsigned long long)at, strerror(errno));
			rc = -1;
		}
		for (int i = 0; rc == 0 && i < k; i++)
			rc = zero_pages(p, r[i].start, r[i].end, why, wlen);
		if (next <= at)
			break;
	}
	close(fd);
	return rc;
}

int pos_apply(struct pt_proc *p, const struct pos_block *b, int nb, struct pos_store *s,
	      char *why, size_t wlen)
{
	static uint8_t buf[POS_BLOCK];
	for (int i = 0; i < nb; i++) {
		if (b[i].hash == POS_ZERO) {
			if (zero_range(p, b[i].addr, b[i].addr + b[i].len, why, wlen) < 0)
				return -1;
			continue;
		}
		if (b[i].len > POS_BLOCK) {
			snprintf(why, wlen, "a memory block of %llu bytes", (unsigned long long)b[i].len);
			return -1;
		}
		read_block(p, b[i].addr, b[i].len, buf);
		if (hash_of(buf, b[i].len) == b[i].hash)
			continue;
		uint32_t slen = 0;
		const uint8_t *src = pos_store_get(s, b[i].hash, &slen);
		if (src && slen != b[i].len)
			src = NULL;
		if (!src) {
			memset(buf, 0, b[i].len);
			if (hash_of(buf, b[i].len) != b[i].hash) {
				snprintf(why, wlen, "the recorded bytes at 0x%llx are not in the trace",
					 (unsigned long long)b[i].addr);
				return -1;
			}
			src = buf;
		}
		if (pt_write(p, b[i].addr, src, b[i].len) < 0) {
			snprintf(why, wlen, "cannot write memory at 0x%llx", (unsigned long long)b[i].addr);
			return -1;
		}
	}
	return 0;
}

/* Are the bytes buf of [addr, addr + len) those of want (NULL: zeros),
 * but in the ranges skip? */
static int bytes_same(const uint8_t *buf, const uint8_t *want, uint64_t addr, uint64_t len,
		      const uint64_t (*skip)[2], int nskip)
{
	for (uint64_t a = addr, end = addr + len; a < end;) {
		uint64_t next = end;
		int in = 0;
		for (int k = 0; k < nskip; k++) {
			if (skip[k][0] <= a && a < skip[k][1]) {
				in = 1;
				next = skip[k][1] < next ? skip[k][1] : next;
			} else if (skip[k][0] > a && skip[k][0] < next) {
				next = skip[k][0];
			}
		}
		if (!in && (want ? memcmp(buf + (a - addr), want + (a - addr), next - a) != 0 :
			    !all_zero(buf + (a - addr), next - a)))
			return 0;
		a = next;
	}
	return 1;
}

/* Is [a, b) of p all zeros (but in the ranges skip)? */
static int zero_pages_are(struct pt_proc *p, uint64_t a, uint64_t b, const uint64_t (*skip)[2],
			  int nskip)
{
	static uint8_t buf[POS_BLOCK];
	for (; a < b; a += POS_BLOCK) {
		uint64_t len = b - a < POS_BLOCK ? b - a : POS_BLOCK;
		read_block(p, a, len, buf);
		if (!bytes_same(buf, NULL, a, len, skip, nskip))
			return 0;
	}
	return 1;
}

/* Is the zero run [lo, hi) of p so? Only its present or swapped pages
 * can hold anything else. */
static int zero_range_is(struct pt_proc *p, uint64_t lo, uint64_t hi, const uint64_t (*skip)[2],
			 int nskip)
{
	struct pm_region r[64];
	int fd = scan_open(p->pid), same = 1;
	if (fd < 0)
		return hi - lo <= READ_ALL_MAX && zero_pages_are(p, lo, hi, skip, nskip);
	for (uint64_t at = lo, next; same && at < hi; at = next) {
		int k = scan(fd, at, hi, r, 64, &next);
		if (k < 0)
			same = 0;
		for (int i = 0; same && i < k; i++)
			same = zero_pages_are(p, r[i].start, r[i].end, skip, nskip);
		if (next <= at)
			break;
	}
	close(fd);
	return same;
}

uint64_t pos_hash_masked(uint64_t addr, const uint8_t *bytes, uint64_t len,
			 const uint64_t (*skip)[2], int nskip)
{
	static uint8_t buf[POS_BLOCK];
	int partial = 0;
	for (int k = 0; k < nskip; k++)
		partial |= skip[k][0] < addr + len && skip[k][1] > addr;
	if (!partial || len > POS_BLOCK)
		return hash_of(bytes, len);
	memcpy(buf, bytes, len);
	for (int k = 0; k < nskip; k++) {
		uint64_t lo = skip[k][0] > addr ? skip[k][0] : addr;
		uint64_t hi = skip[k][1] < addr + len ? skip[k][1] : addr + len;
		if (lo < hi)
			memset(buf + (lo - addr), 0, hi - lo);
	}
	return hash_of(buf, len);
}

int pos_dead_stacks(pid_t pid, const uint64_t *sps, int n, uint64_t (*dead)[2], int max)
{
	struct maps_line m;
	int nd = 0;
	FILE *f = maps_open(pid);
	while (f && maps_next(f, &m))
		for (int i = 0; i < n && nd < max; i++) {
			uint64_t sp = sps[i] > POS_RED_ZONE ? sps[i] - POS_RED_ZONE : 0;
			if (sp > m.lo && sp < m.hi) {
				dead[nd][0] = m.lo;
				dead[nd++][1] = sp;
			}
		}
	if (f)
		fclose(f);
	return nd;
}

void pos_scrub_frame(struct pt_proc *p, uint64_t sp_in, uint64_t sp)
{
	static const uint8_t zero[64 * 1024];
	uint64_t lo = sp_in - 8, hi = sp - POS_RED_ZONE;	/* sp_in: past the return address */
	if (sp_in < 8 || sp < POS_RED_ZONE || lo >= hi || hi - lo > sizeof zero)
		return;
	pt_write(p, lo, zero, hi - lo);
}

int pos_gone_sps(struct pos_gone *g, uint32_t tgid, uint64_t *sps, const uint32_t *tids, int n,
		 int max)
{
	int live = n;
	for (size_t i = 0; i < g->n; i++) {
		if (g->e[i].tgid != tgid)
			continue;
		int k = 0;
		while (k < live && tids[k] != g->e[i].tid)
			k++;
		if (k < live)
			g->e[i].sp = sps[k];
		else if (n < max)
			sps[n++] = g->e[i].sp;
	}
	for (int k = 0; k < live; k++) {
		size_t i = 0;
		while (i < g->n && (g->e[i].tgid != tgid || g->e[i].tid != tids[k]))
			i++;
		if (i < g->n)
			continue;
		if (g->n == g->cap)
			g->e = xrealloc(g->e, (g->cap = g->cap * 2 + 16) * sizeof *g->e);
		g->e[g->n].tgid = tgid;
		g->e[g->n].tid = tids[k];
		g->e[g->n++].sp = sps[k];
	}
	return n;
}

void pos_gone_forget(struct pos_gone *g, uint32_t tgid)
{
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->e[i].tgid != tgid)
			g->e[k++] = g->e[i];
	g->n = k;
}

/* Are the bytes of block b in buf (p's now) the recorded ones, but in
 * the ranges skip? Where they differ by hash, those compared need the
 * recorded bytes (s, or zeros); with no s, b's hash is of its bytes
 * with the ranges skip zeroed (pos_hash_masked). */
static int block_same(const struct pos_block *b, const uint8_t *buf, const struct pos_store *s,
		      const uint64_t (*skip)[2], int nskip)
{
	if (hash_of(buf, b->len) == b->hash)
		return 1;
	if (!s)
		return pos_hash_masked(b->addr, buf, b->len, skip, nskip) == b->hash;
	int partial = 0;
	for (int k = 0; k < nskip; k++)
		partial |= skip[k][0] < b->addr + b->len && skip[k][1] > b->addr;
	if (!partial)
		return 0;
	static const uint8_t zeros[POS_BLOCK];
	uint32_t wlen = 0;
	const uint8_t *want = pos_store_get(s, b->hash, &wlen);
	if (want && wlen != b->len)
		want = NULL;
	if (!want && hash_of(zeros, b->len) == b->hash)
		want = zeros;
	return want && bytes_same(buf, want, b->addr, b->len, skip, nskip);
}

int pos_same(struct pt_proc *p, const struct pos_block *b, int nb, const struct pos_store *s,
	     const uint64_t (*skip)[2], int nskip, int *first)
{
	static uint8_t buf[POS_BLOCK];
	/* The block that differed last time is likely to differ again. */
	for (int j = -1; j < nb; j++) {
		int i = j < 0 ? *first : j;
		if (i < 0 || i >= nb || (j >= 0 && j == *first))
			continue;
		int same;
		if (b[i].hash == POS_ZERO)
			same = zero_range_is(p, b[i].addr, b[i].addr + b[i].len, skip, nskip);
		else if (b[i].len > POS_BLOCK)
			same = 0;
		else {
			read_block(p, b[i].addr, b[i].len, buf);
			same = block_same(&b[i], buf, s, skip, nskip);
		}
		if (!same) {
			*first = i;
			return 0;
		}
	}
	return 1;
}
