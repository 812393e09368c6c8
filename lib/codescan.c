/* codescan.c: finds a mapping's code for the code patchers (tsc.c,
 * count.c): the ELF file it maps, its executable sections and function
 * starts, or the tracee's bytes; and the executable mappings of a process. */
#include "codescan.h"
#include "maps.h"
#include "trace.h"
#include "util.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void code_free(struct code *c)
{
	free(c->r);
	free(c->anchor);
	memset(c, 0, sizeof *c);
}

int code_cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The function starts .eh_frame_hdr (section h) lists, as offsets into
 * the mapping, when its table has the usual encoding (sdata4 relative to
 * the section); else none, and decoding starts at sections' starts. */
static void eh_anchors(const uint8_t *img, size_t size, const Elf64_Shdr *sh, int nsh,
		       const Elf64_Shdr *h, const struct codescan *sc, size_t n, struct code *c)
{
	if (h->sh_offset > size || h->sh_size > size - h->sh_offset || h->sh_size < 12)
		return;
	const uint8_t *b = img + h->sh_offset;
	if (b[0] != 1 || (b[1] & 0x0f) != 0x0b || b[2] != 0x03 || b[3] != 0x3b)
		return;
	uint64_t count = get32(b + 8);
	if (count > (h->sh_size - 12) / 8)
		count = (h->sh_size - 12) / 8;
	c->anchor = xmalloc(count * sizeof *c->anchor + 1);
	const Elf64_Shdr *x = NULL;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t va = h->sh_addr + (int64_t)(int32_t)get32(b + 12 + 8 * i);
		/* Sorted by address: the section of the last one mostly fits. */
		if (!x || va < x->sh_addr || va >= x->sh_addr + x->sh_size) {
			x = NULL;
			for (int k = 0; k < nsh && !x; k++)
				if (sh[k].sh_type == SHT_PROGBITS && (sh[k].sh_flags & SHF_EXECINSTR) &&
				    va >= sh[k].sh_addr && va < sh[k].sh_addr + sh[k].sh_size)
					x = &sh[k];
			if (!x)
				continue;
		}
		uint64_t fo = x->sh_offset + (va - x->sh_addr);
		if (fo >= sc->off && fo - sc->off < n)
			c->anchor[c->nanchor++] = fo - sc->off;
	}
	qsort(c->anchor, c->nanchor, sizeof *c->anchor, code_cmp64);
}

/* The code of a mapping of n bytes that maps a file: the first candidate
 * file that is an x86-64 ELF file whose code at the mapping's offset is
 * the mapping's (its first executable page compared). Fills c from its section headers and maps
 * the file for reading (*img, *size: unmap after; the mapping's bytes are
 * at *img + sc->off). Returns 0, or -1 when no file fits (then the
 * tracee's memory is swept from the mapping's start). */
static int elf_code(const struct codescan *sc, size_t n, struct code *c, uint8_t **img, size_t *size,
		    uint64_t *key)
{
	for (int f = 0; f < 2 && sc->files[f]; f++) {
		int fd = open(sc->files[f], O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			continue;
		uint8_t *m = MAP_FAILED;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= sizeof(Elf64_Ehdr) &&
		    sc->off < (uint64_t)st.st_size)
			m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			continue;
		size_t sz = st.st_size;
		Elf64_Ehdr eh;
		memcpy(&eh, m, sizeof eh);
		if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		    eh.e_machine != EM_X86_64 || eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum ||
		    eh.e_shstrndx >= eh.e_shnum || eh.e_shoff > sz ||
		    eh.e_shnum * sizeof(Elf64_Shdr) > sz - eh.e_shoff || (eh.e_shoff & 7)) {
			munmap(m, sz);
			continue;
		}
		/* Only now: a header that is not ELF's may put it anywhere. */
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(m + eh.e_shoff);
		const Elf64_Shdr *ns = &sh[eh.e_shstrndx];
		const char *names = ns->sh_offset < sz && ns->sh_size <= sz - ns->sh_offset &&
				    ns->sh_size && !m[ns->sh_offset + ns->sh_size - 1]
				    ? (const char *)m + ns->sh_offset : NULL;
		c->r = xmalloc(2 * eh.e_shnum * sizeof *c->r);
		for (int i = 0; i < eh.e_shnum; i++) {
			uint64_t a = sh[i].sh_offset, b = a + sh[i].sh_size;
			if (names && sh[i].sh_name < ns->sh_size &&
			    !strcmp(names + sh[i].sh_name, ".eh_frame_hdr") && !c->anchor)
				eh_anchors(m, sz, sh, eh.e_shnum, &sh[i], sc, n, c);
			if (names && sh[i].sh_name < ns->sh_size &&
			    !strcmp(names + sh[i].sh_name, ".gcc_except_table"))
				c->landing = 1;
			if (sh[i].sh_type == SHT_STRTAB && c->nstrtab >= 0) {
				if (c->nstrtab == 4 || sh[i].sh_offset > sz ||
				    sh[i].sh_size > sz - sh[i].sh_offset) {
					c->nstrtab = -1;
				} else {
					c->strtab[c->nstrtab][0] = sh[i].sh_offset;
					c->strtab[c->nstrtab++][1] = sh[i].sh_size;
				}
			}
			if (sh[i].sh_type != SHT_PROGBITS || !(sh[i].sh_flags & SHF_EXECINSTR) ||
			    b <= sc->off || a >= sc->off + n || b > sz)
				continue;
			/* A section that begins before the mapping is decoded
			 * from the mapping's start. */
			c->r[2 * c->nr] = a > sc->off ? a - sc->off : 0;
			c->r[2 * c->nr + 1] = b < sc->off + n ? b - sc->off : n;
			c->nr++;
		}
		/* The file is the one mapped if its code is the code there
		 * (replay's copy of an executable differs in its headers). */
		uint8_t page[4096];
		uint64_t at = c->nr ? c->r[0] : 0;
		size_t cmp = n - at < sizeof page ? n - at : sizeof page;
		if (cmp > sz - sc->off - at)
			cmp = sz - sc->off - at;
		ssize_t got = pt_read(sc->p, sc->lo + at, page, cmp);
		if (got == (ssize_t)cmp && sc->unpatch)
			sc->unpatch(sc->key, sc->lo + at, page, cmp);
		if (got != (ssize_t)cmp || memcmp(m + sc->off + at, page, cmp)) {
			code_free(c);
			munmap(m, sz);
			continue;
		}
		uint64_t id[6] = { st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec,
				   st.st_mtim.tv_nsec, sc->off };
		*key = hash_final(hash_update(HASH_INIT, id, sizeof id), n);
		*img = m;
		*size = sz;
		return 0;
	}
	return -1;
}

int code_bytes(const struct codescan *sc, int files_only, struct code *c, struct codebytes *cb)
{
	memset(c, 0, sizeof *c);
	memset(cb, 0, sizeof *cb);
	if (sc->hi <= sc->lo)
		return -1;
	size_t n = sc->hi - sc->lo;
	/* A file's bytes are read from the file (the page cache), not
	 * copied out of the tracee. */
	if (elf_code(sc, n, c, &cb->img, &cb->size, &cb->key) == 0) {
		if (n > cb->size - sc->off)
			n = cb->size - sc->off;	/* no code past the file's end */
		cb->bytes = cb->img + sc->off;
		cb->n = n;
		cb->file = 1;
		return 0;
	}
	if (files_only)
		return -1;
	cb->buf = malloc(n);
	ssize_t got = cb->buf ? pt_read(sc->p, sc->lo, cb->buf, n) : -1;
	if (got <= 0) {
		free(cb->buf);
		cb->buf = NULL;
		return -1;
	}
	cb->n = got;
	cb->bytes = cb->buf;
	c->r = xmalloc(2 * sizeof *c->r);
	c->r[0] = 0;
	c->r[1] = got;
	c->nr = 1;
	return 0;
}

void code_done(struct code *c, struct codebytes *cb)
{
	code_free(c);
	if (cb->img)
		munmap(cb->img, cb->size);
	free(cb->buf);
	memset(cb, 0, sizeof *cb);
}

void code_each_exec(struct pt_proc *p, const char *exe, void (*fn)(struct codescan *, void *),
		    void *arg)
{
	FILE *f = maps_open(p->pid);
	struct maps_line m;
	while (f && maps_next(f, &m)) {
		/* The vDSO is hidden from the program (rec(1)). */
		if (m.perm[2] != 'x' || m.name[0] != '/')
			continue;
		struct codescan sc = { p, m.lo, m.hi, m.off, { m.name, exe }, m.perm[3] == 's', NULL, 0 };
		fn(&sc, arg);
	}
	if (f)
		fclose(f);
}

int code_exec_in(struct pt_proc *p, uint64_t lo, uint64_t hi, int *shared)
{
	FILE *f = maps_open(p->pid);
	struct maps_line m;
	int exec = 0;
	*shared = 0;
	while (f && maps_next(f, &m))
		if (m.hi > lo && m.lo < hi) {
			exec |= m.perm[2] == 'x';
			*shared |= m.perm[3] == 's';
		}
	if (f)
		fclose(f);
	return exec;
}

static uint64_t rotl64(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

void code_hash128(uint64_t seed, const void *p, size_t n, uint64_t out[2])
{
	const uint64_t k1 = 0x87c37b91114253d5ull, k2 = 0x4cf5ad432745937full,
		       k3 = 0xff51afd7ed558ccdull, k4 = 0xc4ceb9fe1a85ec53ull;
	uint64_t a[4], b[4], w[4];
	const uint8_t *s = p;
	size_t left = n;
	for (int i = 0; i < 4; i++) {
		a[i] = seed + (i + 1) * k3;
		b[i] = ~seed + (i + 1) * k4;
	}
	/* Eight independent chains: the multiplies overlap. */
	for (; left >= 32; s += 32, left -= 32) {
		memcpy(w, s, 32);
		for (int i = 0; i < 4; i++) {
			a[i] = rotl64(a[i] ^ (w[i] * k1), 31) * k2;
			b[i] = rotl64(b[i] ^ (w[i] * k3), 29) * k4;
		}
	}
	uint64_t h0 = hash_update(seed, s, left), h1 = hash_update(~seed, s, left);
	for (int i = 0; i < 4; i++) {
		h0 = hash_word(h0, a[i]);
		h1 = hash_word(h1, b[i]);
	}
	out[0] = hash_final(h0, n);
	out[1] = hash_final(h1, n);
}

/* ---- the cache on disk ---- */

#define CACHE_MAGIC "RWCODEC1"
#define CACHE_HDR 56	/* magic, u32 version, u32 0, u64 key[2], u64 length, u64 checksum */

/* The cache directory (made if missing, mode 0700), or NULL: none. */
static const char *cache_dir(void)
{
	static char dir[4096];
	static int done;
	if (done)
		return dir[0] ? dir : NULL;
	done = 1;
	if (env_flag("REWIND_NO_CODE_CACHE"))
		return NULL;
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	char base[4096];
	/* The XDG spec: a relative path is to be ignored. */
	if (x && x[0] == '/')
		snprintf(base, sizeof base, "%s", x);
	else if (h && h[0] == '/')
		snprintf(base, sizeof base, "%s/.cache", h);
	else
		return NULL;
	if ((size_t)snprintf(dir, sizeof dir, "%s/rewind", base) >= sizeof dir) {
		dir[0] = 0;
		return NULL;
	}
	mkdir(base, 0700);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		dir[0] = 0;
	return dir[0] ? dir : NULL;
}

static int cache_path(char *path, size_t size, const char *what, const uint64_t key[2])
{
	const char *dir = cache_dir();
	return dir && (size_t)snprintf(path, size, "%s/%s-%016llx%016llx", dir, what,
				       (unsigned long long)key[0], (unsigned long long)key[1]) < size
		       ? 0 : -1;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> 8 * i;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = v >> 8 * i;
}

/* Writes all of buf; 0 or -1. */
static int cache_write(int fd, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	while (len) {
		ssize_t w = write(fd, b, len);
		if (w <= 0)
			return -1;
		b += w;
		len -= w;
	}
	return 0;
}

static uint64_t cache_sum(const uint8_t *hdr, const uint8_t *payload, size_t len)
{
	uint64_t h[2];
	code_hash128(hash_final(hash_update(HASH_INIT, hdr, CACHE_HDR - 8), CACHE_HDR - 8), payload,
		     len, h);
	return h[0] ^ h[1];
}

static void cache_header(uint8_t *hdr, const uint64_t key[2], uint32_t version, const uint8_t *buf,
			 size_t len)
{
	memset(hdr, 0, CACHE_HDR);
	memcpy(hdr, CACHE_MAGIC, 8);
	put32(hdr + 8, version);
	put64(hdr + 16, key[0]);
	put64(hdr + 24, key[1]);
	put64(hdr + 32, len);
	put64(hdr + 40, 0);	/* reserved */
	put64(hdr + 48, cache_sum(hdr, buf, len));
}

int code_cache_map(const char *what, const uint64_t key[2], uint32_t version, const uint8_t **buf,
		   size_t *len)
{
	char path[4200];
	if (cache_path(path, sizeof path, what, key) < 0)
		return -3;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	uint8_t *m = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= CACHE_HDR)
		m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -2;
	/* Every field as it would be written for this key, length and
	 * checksum too. */
	size_t n = st.st_size - CACHE_HDR;
	uint8_t want[CACHE_HDR];
	cache_header(want, key, version, m + CACHE_HDR, n);
	if (memcmp(m, want, CACHE_HDR)) {
		munmap(m, st.st_size);
		return -2;
	}
	*buf = m + CACHE_HDR;
	*len = n;
	return 0;
}

void code_cache_unmap(const uint8_t *buf, size_t len)
{
	munmap((uint8_t *)buf - CACHE_HDR, len + CACHE_HDR);
}

void code_cache_put(const char *what, const uint64_t key[2], uint32_t version, const void *buf,
		    size_t len)
{
	char path[4200], tmp[4300];
	if (cache_path(path, sizeof path, what, key) < 0)
		return;
	snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	uint8_t hdr[CACHE_HDR];
	cache_header(hdr, key, version, buf, len);
	int ok = cache_write(fd, hdr, CACHE_HDR) == 0 && cache_write(fd, buf, len) == 0;
	if (close(fd) < 0)
		ok = 0;
	/* Another rec may put the same entry at the same time: both are
	 * whole, and either one renamed last is right. The old entry goes
	 * first: ext4 writes a file renamed over another out to the disk
	 * at once (auto_da_alloc), 130 us a put against 36 here, twice a
	 * file a recording (its link into the trace moves its change
	 * time). A reader in between finds no entry and hashes the file. */
	if (ok)
		unlink(path);
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
}
