/* tsc.c: makes rdtsc and rdtscp stop the tracee: the kernel's trap, or
 * patching each one found in executable code (decoded with Zydis) into
 * ud2 of the same length, with a table of patched places per process;
 * and CPUID, by CPUID faulting set again after every execve, or answered
 * from the table of the one CPU the program ran on. */
#include "tsc.h"
#include "codescan.h"
#include "cpu.h"
#include "inject.h"
#include "pin.h"
#include "probe.h"
#include "trace.h"
#include "util.h"

#include <Zydis/Zydis.h>
#include <cpuid.h>
#include <elf.h>
#include <sched.h>
#include <emmintrin.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pkey_mprotect
#define SYS_pkey_mprotect 329
#endif
#ifndef ARCH_SET_CPUID
#define ARCH_SET_CPUID 0x1012
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

/* A mapping being scanned, and the table its places go to. */
struct scan {
	struct codescan c;
	struct space *sp;
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
static int cpuid;		/* CPUID faults (TSC_CPUID) */
static int table;		/* the program's CPU's table (TSC_CPUID_TABLE) */
static int tab_fault = -1;	/* replay: CPUID faults, answered from tab */
static struct cpu_info tab;	/* that table */
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

static int want_cpuid;

void tsc_want_cpuid(int want)
{
	want_cpuid = want;
}

int tsc_choose(int recorded)
{
	int trap = probe_has(PROBE_TSC_TRAP), can_cpuid = probe_has(PROBE_CPUID_FAULT);
	in_rec = recorded == -1;
	if (!in_rec && (recorded < 0 || (recorded & ~(TSC_CPUID | TSC_CPUID_TABLE)) > TSC_PATCH ||
			(recorded & TSC_CPUID && recorded & TSC_CPUID_TABLE)))
		return -1;
	if (!in_rec && (recorded & TSC_CPUID) && !can_cpuid)
		return -2;
	if (in_rec) {
		/* Where every thread runs on one CPU, the program's CPUID
		 * answers are that CPU's, which the trace keeps whole. */
		table = want_cpuid && pin_cpu() >= 0 && !env_flag("REWIND_CPUID_FAULT");
		if (table) {	/* read there (a cpuset may forbid it) */
			cpu_read_whole(&tab, pin_cpu());
			table = tab.whole && tab.cpu == (uint32_t)pin_cpu();
		}
		cpuid = !table && can_cpuid && want_cpuid;
	} else {
		table = (recorded & TSC_CPUID_TABLE) != 0;
		cpuid = (recorded & TSC_CPUID) != 0;
		recorded &= ~(TSC_CPUID | TSC_CPUID_TABLE);
	}
	if (recorded == TSC_PATCH || !trap)
		B = &patch_backend;
	else
		B = &trap_backend;
	guard = !in_rec && trap && B == &patch_backend;
	return B->way | (cpuid ? TSC_CPUID : 0) | (table ? TSC_CPUID_TABLE : 0);
}

const struct cpu_info *tsc_table(void)
{
	return table && in_rec ? &tab : NULL;
}

void tsc_table_load(const char *dir)
{
	char err[4400];
	if (!table)
		return;
	int k = cpu_load(dir, &tab, err, sizeof err);
	if (k < 0)
		die(EXIT_TRACE, "%s", err);
	if (k == 1 && tab.whole)
		return;
	/* --force: CPUID runs natively (cpu_check_trace warned of a
	 * missing file). */
	if (!cpu_force)
		die(EXIT_TRACE, "%s/cpu: %s: the program's CPUID answers were kept there (use "
		    "--force to try anyway)", dir,
		    k ? "not the whole table of the CPU the program ran on" : "missing");
	if (k)
		warnx_("%s/cpu: not the whole table of the CPU the program ran on: CPUID runs "
		       "natively (--force)", dir);
	if (!k)
		tab.cpu = CPU_ANY;	/* else still the CPU to run on */
	tab_fault = 0;
}

int tsc_table_cpu(void)
{
	return table && tab.cpu != CPU_ANY ? (int)tab.cpu : -1;
}

int tsc_traps(void)
{
	return B && (B == &trap_backend || guard);
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

static ZydisDecoder dec;

/* Where the bytes of rdtsc (0f 31) or rdtscp (0f 01 f9) occur in
 * buf[0, n), in order, into a malloc'd *out; returns how many. Sixteen
 * bytes a step (SSE2): a 20 MB compiler takes about a millisecond, where
 * memmem() took forty. */
static size_t candidates(const uint8_t *m, size_t n, uint64_t **out)
{
	size_t k = 0, cap = 0, i = 0;
	const __m128i f = _mm_set1_epi8(0x0f), a = _mm_set1_epi8(0x31), o = _mm_set1_epi8(0x01);
	*out = NULL;
	for (;; i += 16) {
		unsigned mask = 0;
		if (i + 17 <= n) {
			__m128i x = _mm_loadu_si128((const __m128i *)(m + i));
			__m128i y = _mm_loadu_si128((const __m128i *)(m + i + 1));
			mask = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x, f),
				_mm_or_si128(_mm_cmpeq_epi8(y, a), _mm_cmpeq_epi8(y, o))));
		} else {
			for (size_t j = i; j + 1 < n; j++)
				if (m[j] == 0x0f && (m[j + 1] == 0x31 || m[j + 1] == 0x01))
					mask |= 1u << (j - i);
		}
		while (mask) {
			size_t p = i + __builtin_ctz(mask);
			mask &= mask - 1;
			if (m[p + 1] != 0x31 && (p + 2 >= n || m[p + 2] != 0xf9))
				continue;
			if (k == cap)
				*out = xrealloc(*out, (cap = cap * 2 + 16) * sizeof **out);
			(*out)[k++] = p;
		}
		if (i + 17 > n)
			return k;
	}
}

/* Record each rdtsc and rdtscp (without prefixes) that begins an
 * instruction of buf[from, to), decoding from its start, or from the
 * nearest known instruction start before each candidate place (cand,
 * sorted). Code between candidates is not decoded. */
static void decode(const uint8_t *buf, size_t from, size_t to, const struct code *c,
		   const uint64_t *cand, size_t ncand, uint64_t **found, int *nfound)
{
	size_t at = from, ai = 0;
	ZydisDecodedInstruction in;
	for (size_t i = 0; i < ncand; i++) {
		size_t want = cand[i];
		if (want < from || want >= to || at > want)
			continue;	/* elsewhere, or inside an instruction decoded already */
		while (ai < c->nanchor && c->anchor[ai] <= want)
			ai++;
		if (ai && c->anchor[ai - 1] > at && c->anchor[ai - 1] >= from)
			at = c->anchor[ai - 1];
		while (at <= want) {
			if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, buf + at, to - at, &in))) {
				at++;
				continue;
			}
			if (at == want && (in.mnemonic == ZYDIS_MNEMONIC_RDTSC ||
					   in.mnemonic == ZYDIS_MNEMONIC_RDTSCP)) {
				int k = in.mnemonic == ZYDIS_MNEMONIC_RDTSCP;
				if (in.length == insns[k].len && !memcmp(buf + at, insns[k].orig, in.length)) {
					*found = xrealloc(*found, (*nfound + 1) * sizeof **found);
					(*found)[(*nfound)++] = (uint64_t)at << 1 | k;
				}
			}
			at += in.length;
		}
	}
}

/* What decoding found in code seen before: every process maps the same
 * loader and libc, so each is decoded once. Keyed by the file's identity
 * and offset, or by a hash of the bytes, and the length. */
static struct known {
	uint64_t key;
	size_t n;
	int nfound;
	uint64_t *found;
} known[64];
static int nknown;

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
	struct code c;
	struct codebytes cb;
	if (code_bytes(&sc->c, 0, &c, &cb) < 0)
		return;
	const uint8_t *bytes = cb.bytes;
	size_t n = cb.n;
	uint64_t key = cb.key;
	uint64_t *found = NULL, *cand;
	int nfound = 0;
	/* Cheap first: most code holds neither byte pattern. */
	size_t ncand = candidates(bytes, n, &cand);
	if (ncand) {
		if (!key)
			key = hash_final(hash_update(HASH_INIT, bytes, n), n);
		struct known *kn = NULL;
		for (int i = 0; i < nknown && i < 64 && !kn; i++)
			if (known[i].key == key && known[i].n == n)
				kn = &known[i];
		if (kn) {
			nfound = kn->nfound;
			found = xmalloc(nfound * sizeof *found + 1);
			memcpy(found, kn->found, nfound * sizeof *found);
		} else {
			for (int i = 0; i < c.nr; i++)
				decode(bytes, c.r[2 * i], c.r[2 * i + 1], &c, cand, ncand, &found, &nfound);
			kn = &known[nknown++ % 64];
			free(kn->found);
			*kn = (struct known){ key, n, nfound, xmalloc(nfound * sizeof *found + 1) };
			if (nfound)
				memcpy(kn->found, found, nfound * sizeof *found);
		}
	}
	free(cand);
	int elf = cb.file, patched = 0;
	code_done(&c, &cb);
	if (nfound && sc->c.shared && in_rec)
		warnx_("warning: %d rdtsc/rdtscp in a shared mapping at 0x%llx are not patched; "
		       "their values are not recorded", nfound, (unsigned long long)sc->c.lo);
	for (int i = 0; i < nfound && !sc->c.shared; i++) {
		uint64_t addr = sc->c.lo + (found[i] >> 1);
		int k = found[i] & 1;
		uint8_t b[3];
		/* The tracee's bytes, not the file's, are what runs. */
		if (pt_read(sc->c.p, addr, b, insns[k].len) == insns[k].len &&
		    !memcmp(b, insns[k].orig, insns[k].len) &&
		    pt_write(sc->c.p, addr, insns[k].patch, insns[k].len) == 0) {
			add_site(sc->sp, addr, k);
			patched++;
		}
	}
	free(found);
	/* Code that is no ELF file's (a JIT's, a raw file mapped executable)
	 * is decoded from its first byte, with no function starts to go by:
	 * what decodes as rdtsc there may be data, which the program then
	 * reads changed. Said once. */
	static int told;
	if (patched && !elf && in_rec && !told++)
		warnx_("warning: %d rdtsc/rdtscp patched to ud2 in executable memory at 0x%llx "
		       "that is no ELF file's code (rdtsc does not trap here): if they are data, the "
		       "program reads them changed; later ones are not reported", patched,
		       (unsigned long long)sc->c.lo);
}

static void exec_one(struct codescan *c, void *sp)
{
	struct scan sc = { *c, sp };
	B->code(&sc);
}

/* CPUID faulting is the thread's, and an execve ends it: set it again
 * from inside, before the loader's first CPUID (a signal pending then,
 * such as a child's SIGCHLD that came during the execve, must not stop
 * the call: eng_inject_quiet). */
static int cpuid_arm(struct pt_proc *p)
{
	struct user_regs_struct r;
	uint64_t a[6] = { ARCH_SET_CPUID, 0 }, ret;
	pt_getregs(p, &r);
	if (eng_inject_quiet(p, &r, r.rip, SYS_arch_prctl, a, &ret) < 0) {
		errno = EINTR;	/* a signal came first: it gave up */
		return -1;
	}
	if (ret) {
		errno = -(int64_t)ret;
		return -1;
	}
	return 0;
}

/* rec: whether thread tid may run elsewhere than on the table's CPU. */
static int off_table_cpu(pid_t tid)
{
	cpu_set_t set;
	return sched_getaffinity(tid, sizeof set, &set) < 0 || CPU_COUNT(&set) != 1 ||
	       !CPU_ISSET(tab.cpu, &set);
}

/* replay: whether CPUID must fault to give the table's answers: this
 * CPU's differ (or REWIND_CPUID_TABLE_FAULT=1 says so). */
static int table_must_fault(void)
{
	static struct cpu_info here;
	if (env_flag("REWIND_CPUID_TABLE_FAULT") || pin_cpu() < 0)
		return 1;
	cpu_read_whole(&here, pin_cpu());
	return !cpu_same(&tab, &here);
}

int tsc_exec(struct pt_proc *p, uint32_t key, const char *exe)
{
	struct space *sp = space_of(key, 1);
	sp->n = 0;
	if (B->code != no_code)
		code_each_exec(p, exe, exec_one, sp);
	if (table && in_rec)	/* a thread that left the CPU (taskset) */
		return probe_has(PROBE_CPUID_FAULT) && off_table_cpu(p->pid) ? cpuid_arm(p) : 0;
	if (table && tab_fault < 0) {
		tab_fault = table_must_fault();
		if (tab_fault && !probe_has(PROBE_CPUID_FAULT))
			die(EXIT_TRACE, "this CPU answers CPUID otherwise than CPU %d of the recording "
			    "machine, where the program ran, and CPUID faulting, which would give it "
			    "those answers, is missing (or REWIND_NO_CPUID_FAULT is set): replay on "
			    "that CPU, or where rec --probe shows \"cpuid faulting: present\"",
			    tsc_table_cpu());
	}
	return cpuid || (table && tab_fault == 1) ? cpuid_arm(p) : 0;
}

int tsc_left_cpu(struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret, pid_t *moved)
{
	*moved = 0;
	if (!table || !in_rec || nr != SYS_sched_setaffinity || ret != 0 ||
	    !probe_has(PROBE_CPUID_FAULT))
		return 0;
	if (a[0] != 0 && (pid_t)a[0] != p->pid) {
		*moved = (pid_t)a[0];
		return 0;
	}
	return tsc_check_cpu(p);
}

int tsc_check_cpu(struct pt_proc *p)
{
	if (!table || !in_rec || !probe_has(PROBE_CPUID_FAULT) || !off_table_cpu(p->pid))
		return 0;
	return cpuid_arm(p);
}

int tsc_table_answer(const uint32_t in[2], uint32_t out[4])
{
	return table ? cpu_answer(&tab, in[0], in[1], out) : -1;
}

int tsc_table_cpuid(struct pt_proc *p, const siginfo_t *si, uint32_t in[2])
{
	struct user_regs_struct r;
	uint32_t out[4];
	uint8_t b[2];
	if (!table || si->si_signo != SIGSEGV || si->si_code != SI_KERNEL)
		return 0;
	pt_getregs(p, &r);
	if (pt_read(p, r.rip, b, 2) != 2 || b[0] != 0x0f || b[1] != 0xa2)
		return 0;
	in[0] = r.rax;
	in[1] = r.rcx;
	if (tsc_table_answer(in, out) < 0)
		return -1;
	tsc_cpuid_done(p, &r, out);
	return 1;
}

void tsc_cpuid_done(struct pt_proc *p, struct user_regs_struct *r, const uint32_t out[4])
{
	r->rax = out[0];
	r->rbx = out[1];
	r->rcx = out[2];
	r->rdx = out[3];
	r->rip += 2;
	pt_setregs(p, r);
}

/* Patch the executable private parts of [lo, hi) as one stretch of code
 * (no file: mprotect and mremap say none). The stretch is decoded as a
 * whole, not per mapping: replay's mappings are split differently. */
static void code_in(struct pt_proc *p, struct space *sp, uint64_t lo, uint64_t hi)
{
	int shared;
	/* The trap stops rdtsc anywhere: no code to read (nor the maps,
	 * 29 us, at the buffer's mprotect in each process). */
	if (B->code == no_code || !code_exec_in(p, lo, hi, &shared))
		return;
	struct scan sc = { { p, lo, hi, 0, { NULL, NULL }, shared, NULL, 0 }, sp };
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
		struct scan sc = { { p, ret, ret + len, a[5], { file, NULL }, shared, NULL, 0 }, sp };
		if (a[3] & MAP_ANONYMOUS)
			sc.c.files[0] = NULL;
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
		if ((cpuid || table) && pt_read(p, rip, b, 2) == 2 && b[0] == 0x0f && b[1] == 0xa2)
			return TSC_CPUID_INSN;
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

void tsc_cpuid(const uint32_t in[2], uint32_t out[4])
{
	unsigned a, b, c, d;
	__cpuid_count(in[0], in[1], a, b, c, d);
	if (in[0] == 1)
		b &= 0x00ffffff;	/* the initial APIC id */
	if (in[0] == 0xb || in[0] == 0x1f)
		d = 0;			/* the x2APIC id */
	if (in[0] == 0x8000001e)
		a = 0;			/* AMD's extended APIC id */
	out[0] = a;
	out[1] = b;
	out[2] = c;
	out[3] = d;
}
