/* tsc.c: makes rdtsc and rdtscp stop the tracee: the kernel's trap, or
 * patching each one found in executable code (decoded with Zydis) into
 * ud2 of the same length, with a table of patched places per process. */
#include "tsc.h"
#include "probe.h"
#include "trace.h"
#include "util.h"

#include <Zydis/Zydis.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pkey_mprotect
#define SYS_pkey_mprotect 329
#endif

/* The instructions, and what each becomes: ud2 raises SIGILL at the
 * instruction's first byte; the nop pads rdtscp's third byte, never run. */
static const struct {
	uint8_t len, orig[3], patch[3];
} insns[2] = {
	{ 2, { 0x0f, 0x31 }, { 0x0f, 0x0b } },			/* rdtsc */
	{ 3, { 0x0f, 0x01, 0xf9 }, { 0x0f, 0x0b, 0x90 } },	/* rdtscp */
};

struct site {
	uint64_t addr;
	int insn;		/* index into insns */
};

/* The patched places of one process (its id as recorded). */
struct space {
	uint32_t key;
	struct site *s;
	int n, cap;
};

/* A mapping being scanned, and the files its bytes may come from. */
struct scan {
	struct pt_proc *p;
	struct space *sp;
	uint64_t lo, hi;	/* the range, in the tracee */
	uint64_t off;		/* its file offset, when it maps a file */
	const char *files[2];	/* candidates for that file (NULL: none) */
	int shared;		/* a MAP_SHARED mapping: never written */
};

/* A back end: arm the trap in the child; handle code that appeared. */
struct backend {
	int way;
	int (*arm)(void);
	void (*code)(struct scan *sc);
};

static const struct backend *B;
static int guard;		/* a patched replay arms the trap as well */
static int in_rec;		/* rec says what it cannot patch */
static struct space *spaces;
static int nspaces;

static int arm_trap(void)
{
	return prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
}

static int arm_patch(void)
{
	return guard ? arm_trap() : 0;
}

static void no_code(struct scan *sc)
{
	(void)sc;
}

static void patch_code(struct scan *sc);

static const struct backend trap_backend = { TSC_TRAP, arm_trap, no_code };
static const struct backend patch_backend = { TSC_PATCH, arm_patch, patch_code };

int tsc_choose(int recorded)
{
	int trap = probe_has(PROBE_TSC_TRAP);
	if (recorded > TSC_PATCH)
		return -1;
	in_rec = recorded < 0;
	if (recorded == TSC_PATCH || !trap)
		B = &patch_backend;
	else
		B = &trap_backend;
	guard = !in_rec && trap && B == &patch_backend;
	return B->way;
}

int tsc_arm(void)
{
	if (!B)
		die(EXIT_TRACE, "internal error: no way to stop rdtsc chosen");
	return B->arm();
}

static struct space *space_of(uint32_t key, int make)
{
	for (int i = 0; i < nspaces; i++)
		if (spaces[i].key == key)
			return &spaces[i];
	if (!make)
		return NULL;
	spaces = xrealloc(spaces, (nspaces + 1) * sizeof *spaces);
	spaces[nspaces] = (struct space){ .key = key };
	return &spaces[nspaces++];
}

static void add_site(struct space *sp, uint64_t addr, int insn)
{
	for (int i = 0; i < sp->n; i++)
		if (sp->s[i].addr == addr)
			return;
	if (sp->n == sp->cap)
		sp->s = xrealloc(sp->s, (sp->cap = sp->cap * 2 + 16) * sizeof *sp->s);
	sp->s[sp->n++] = (struct site){ addr, insn };
}

/* Forget the places in [lo, hi). */
static void drop_sites(struct space *sp, uint64_t lo, uint64_t hi)
{
	for (int i = 0; sp && i < sp->n; i++)
		if (sp->s[i].addr >= lo && sp->s[i].addr < hi)
			sp->s[i--] = sp->s[--sp->n];
}

/* Executable-section ranges [r[2i], r[2i+1]) (offsets into the mapping
 * of n bytes in buf) from the section headers of the first candidate
 * file whose bytes at the mapping's offset are the mapping's. Returns
 * the number of ranges, or -1 when no file fits (then sweep it all). */
static int elf_ranges(const struct scan *sc, const uint8_t *buf, size_t n, uint64_t **r)
{
	for (int f = 0; f < 2 && sc->files[f]; f++) {
		int fd = open(sc->files[f], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		Elf64_Ehdr eh;
		uint8_t page[4096];
		size_t cmp = n < sizeof page ? n : sizeof page;
		Elf64_Shdr *sh = NULL;
		int nr = -1;
		if (pread(fd, &eh, sizeof eh, 0) != sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
		    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
		    eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum || eh.e_shnum > 4096 ||
		    pread(fd, page, cmp, sc->off) != (ssize_t)cmp || memcmp(page, buf, cmp))
			goto next;
		sh = xmalloc(eh.e_shnum * sizeof *sh);
		if (pread(fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff) != (ssize_t)(eh.e_shnum * sizeof *sh))
			goto next;
		*r = xmalloc(2 * eh.e_shnum * sizeof **r);
		nr = 0;
		for (int i = 0; i < eh.e_shnum; i++) {
			uint64_t a = sh[i].sh_offset, b = a + sh[i].sh_size;
			if (sh[i].sh_type != SHT_PROGBITS || !(sh[i].sh_flags & SHF_EXECINSTR) ||
			    b <= sc->off || a >= sc->off + n)
				continue;
			/* A section that begins before the mapping is decoded
			 * from the mapping's start. */
			(*r)[2 * nr] = a > sc->off ? a - sc->off : 0;
			(*r)[2 * nr + 1] = b < sc->off + n ? b - sc->off : n;
			nr++;
		}
next:
		free(sh);
		close(fd);
		if (nr >= 0)
			return nr;
	}
	return -1;
}

static ZydisDecoder dec;

/* Decode buf[from, to) from its start, and record each rdtsc and rdtscp
 * without prefixes at or before the last candidate byte pattern. */
static void decode(struct scan *sc, const uint8_t *buf, size_t from, size_t to, uint64_t *found,
		   int *nfound, int max)
{
	static const uint8_t pat[2][3] = { { 0x0f, 0x31 }, { 0x0f, 0x01, 0xf9 } };
	/* Files without a candidate cost no decoding. */
	size_t last = 0;
	int any = 0;
	for (int k = 0; k < 2; k++)
		for (const uint8_t *q = buf + from; q < buf + to;) {
			q = memmem(q, buf + to - q, pat[k], insns[k].len);
			if (!q)
				break;
			if ((size_t)(q - buf) >= last)
				last = q - buf;
			any = 1;
			q++;
		}
	if (!any)
		return;
	ZydisDecodedInstruction in;
	for (size_t at = from; at <= last && at < to;) {
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, buf + at, to - at, &in))) {
			at++;
			continue;
		}
		if ((in.mnemonic == ZYDIS_MNEMONIC_RDTSC || in.mnemonic == ZYDIS_MNEMONIC_RDTSCP)) {
			int k = in.mnemonic == ZYDIS_MNEMONIC_RDTSCP;
			if (in.length == insns[k].len && !memcmp(buf + at, insns[k].orig, in.length)) {
				if (*nfound < max)
					found[(*nfound)++] = (uint64_t)at << 1 | k;
			} else if (in_rec) {
				warnx_("warning: a %s with prefixes at 0x%llx is not patched; its value is "
				       "not recorded", k ? "rdtscp" : "rdtsc",
				       (unsigned long long)(sc->lo + at));
			}
		}
		at += in.length;
	}
}

/* The patch back end: find the instructions in [lo, hi) and patch them. */
static void patch_code(struct scan *sc)
{
	static int init;
	if (!init) {
		if (!ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
		    !ZYAN_SUCCESS(ZydisDecoderEnableMode(&dec, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE)))
			die(EXIT_TRACE, "cannot set up the x86 decoder (Zydis)");
		init = 1;
	}
	if (sc->hi <= sc->lo)
		return;
	size_t n = sc->hi - sc->lo;
	uint8_t *buf = malloc(n);
	ssize_t got = buf ? pt_read(sc->p, sc->lo, buf, n) : -1;
	if (got <= 0) {
		free(buf);
		return;
	}
	n = got;
	uint64_t *r = NULL, whole[2] = { 0, n };
	int nr = elf_ranges(sc, buf, n, &r);
	if (nr < 0) {
		free(r);
		r = whole;
		nr = 1;
	}
	int nfound = 0, max = 4096;
	uint64_t *found = xmalloc(max * sizeof *found);
	for (int i = 0; i < nr; i++)
		decode(sc, buf, r[2 * i], r[2 * i + 1], found, &nfound, max);
	if (r != whole)
		free(r);
	if (nfound && sc->shared && in_rec)
		warnx_("warning: %d rdtsc/rdtscp in a shared mapping at 0x%llx are not patched; "
		       "their values are not recorded", nfound, (unsigned long long)sc->lo);
	for (int i = 0; i < nfound && !sc->shared; i++) {
		uint64_t addr = sc->lo + (found[i] >> 1);
		int k = found[i] & 1;
		if (pt_write(sc->p, addr, insns[k].patch, insns[k].len) == 0)
			add_site(sc->sp, addr, k);
	}
	free(found);
	free(buf);
}

/* One line of /proc/PID/maps. */
struct mapline {
	uint64_t lo, hi, off;
	char perm[8];
	char name[4200];
};

static int next_map(FILE *f, struct mapline *m)
{
	char line[4400];
	while (fgets(line, sizeof line, f)) {
		int pos = 0;
		m->name[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &m->lo, &m->hi, m->perm, &m->off, &pos) < 4)
			continue;
		if (pos) {
			snprintf(m->name, sizeof m->name, "%s", line + pos);
			m->name[strcspn(m->name, "\n")] = 0;
			char *d = strstr(m->name, " (deleted)");
			if (d && !d[10])
				*d = 0;
		}
		return 1;
	}
	return 0;
}

static FILE *open_maps(struct pt_proc *p)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", p->pid);
	return fopen(path, "re");
}

void tsc_exec(struct pt_proc *p, uint32_t key, const char *exe)
{
	struct space *sp = space_of(key, 1);
	sp->n = 0;
	if (B->code == no_code)
		return;
	FILE *f = open_maps(p);
	struct mapline m;
	while (f && next_map(f, &m)) {
		/* The vDSO is hidden from the program (rec(1)). */
		if (m.perm[2] != 'x' || m.name[0] != '/')
			continue;
		struct scan sc = { p, sp, m.lo, m.hi, m.off, { m.name, exe }, m.perm[3] == 's' };
		B->code(&sc);
	}
	if (f)
		fclose(f);
}

/* Patch the executable private parts of [lo, hi) as one stretch of code
 * (no file: mprotect and mremap say none). The stretch is decoded as a
 * whole, not per mapping: replay's mappings are split differently. */
static void code_in(struct pt_proc *p, struct space *sp, uint64_t lo, uint64_t hi)
{
	FILE *f = open_maps(p);
	struct mapline m;
	int exec = 0, shared = 0;
	while (f && next_map(f, &m))
		if (m.hi > lo && m.lo < hi) {
			exec |= m.perm[2] == 'x';
			shared |= m.perm[3] == 's';
		}
	if (f)
		fclose(f);
	if (!exec)
		return;
	struct scan sc = { p, sp, lo, hi, 0, { NULL, NULL }, shared };
	B->code(&sc);
}

/* Write the patches in [lo, hi) again where the page came back from its
 * file (madvise(MADV_DONTNEED) of private file pages). */
static void repatch(struct pt_proc *p, struct space *sp, uint64_t lo, uint64_t hi)
{
	for (int i = 0; sp && i < sp->n; i++) {
		const struct site *s = &sp->s[i];
		uint8_t b[3];
		if (s->addr < lo || s->addr >= hi ||
		    pt_read(p, s->addr, b, insns[s->insn].len) != insns[s->insn].len ||
		    memcmp(b, insns[s->insn].orig, insns[s->insn].len))
			continue;
		pt_write(p, s->addr, insns[s->insn].patch, insns[s->insn].len);
	}
}

void tsc_syscall(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret,
		 const char *file)
{
	if (ret < 0 && ret > -4096)
		return;
	struct space *sp = space_of(key, 1);
	uint64_t len = (a[1] + 4095) & ~4095ull;
	switch (nr) {
	case SYS_mmap: {
		drop_sites(sp, ret, ret + len);
		if (!(a[2] & PROT_EXEC))
			return;
		int shared = (a[3] & MAP_SHARED_VALIDATE) != MAP_PRIVATE;
		struct scan sc = { p, sp, ret, ret + len, a[5], { file, NULL }, shared };
		if (a[3] & MAP_ANONYMOUS)
			sc.files[0] = NULL;
		B->code(&sc);
		return;
	}
	case SYS_munmap:
		drop_sites(sp, a[0], a[0] + len);
		return;
	case SYS_mprotect:
	case SYS_pkey_mprotect:
		if (a[2] & PROT_EXEC)
			code_in(p, sp, a[0], a[0] + len);
		return;
	case SYS_madvise:
		repatch(p, sp, a[0], a[0] + len);
		return;
	case SYS_mremap: {
		uint64_t newlen = (a[2] + 4095) & ~4095ull;
		/* The places move with the pages; a shrink loses some. */
		for (int i = 0; i < sp->n; i++) {
			struct site *s = &sp->s[i];
			if (s->addr < a[0] || s->addr >= a[0] + len)
				continue;
			if (s->addr - a[0] >= newlen)
				sp->s[i--] = sp->s[--sp->n];
			else
				s->addr += (uint64_t)ret - a[0];
		}
		if (newlen > len)
			code_in(p, sp, ret + len, ret + newlen);
		return;
	}
	}
}

void tsc_fork(uint32_t parent, uint32_t child)
{
	struct space *c = space_of(child, 1);
	struct space *pa = space_of(parent, 0);
	c->n = 0;
	for (int i = 0; pa && i < pa->n; i++)
		add_site(c, pa->s[i].addr, pa->s[i].insn);
}

int tsc_stopped(struct pt_proc *p, uint32_t key, const siginfo_t *si, uint64_t rip)
{
	uint8_t b[3];
	if (si->si_signo == SIGSEGV && si->si_code == SI_KERNEL) {
		for (int k = 0; k < 2; k++)
			if (pt_read(p, rip, b, insns[k].len) == insns[k].len &&
			    !memcmp(b, insns[k].orig, insns[k].len))
				return k + 1;
		return 0;
	}
	struct space *sp = space_of(key, 0);
	if (si->si_signo != SIGILL || !sp)
		return 0;
	for (int i = 0; i < sp->n; i++) {
		int k = sp->s[i].insn;
		if (sp->s[i].addr == rip)
			/* The program may have written its own code there. */
			return pt_read(p, rip, b, insns[k].len) == insns[k].len &&
			       !memcmp(b, insns[k].patch, insns[k].len) ? k + 1 : 0;
	}
	return 0;
}

void tsc_unpatch(uint32_t key, uint64_t addr, uint8_t *buf, size_t len)
{
	struct space *sp = space_of(key, 0);
	for (int i = 0; sp && i < sp->n; i++) {
		const struct site *s = &sp->s[i];
		for (int j = 0; j < insns[s->insn].len; j++) {
			uint64_t a = s->addr + j;
			if (a >= addr && a - addr < len && buf[a - addr] == insns[s->insn].patch[j])
				buf[a - addr] = insns[s->insn].orig[j];
		}
	}
}

size_t tsc_export(uint32_t key, uint8_t **buf)
{
	struct space *sp = space_of(key, 0);
	int n = sp ? sp->n : 0;
	*buf = xmalloc(16 * n + 1);
	for (int i = 0; i < n; i++) {
		uint32_t w[2] = { sp->s[i].insn, 0 };
		memcpy(*buf + 16 * i, &sp->s[i].addr, 8);
		memcpy(*buf + 16 * i + 8, w, 8);
	}
	return 16 * (size_t)n;
}

void tsc_import(uint32_t key, const uint8_t *p, size_t len)
{
	struct space *sp = space_of(key, 1);
	sp->n = 0;
	for (size_t i = 0; i + 16 <= len; i += 16)
		add_site(sp, get64(p + i), get32(p + i + 8) != 0);
}
