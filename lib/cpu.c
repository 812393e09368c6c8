/* cpu.c: reads this CPU's CPUID leaves and XCR0, stores them as the
 * trace's cpu file, refuses a replay on a CPU lacking what the recording
 * CPU had (CPUID cannot always be trapped, so libc would take others), and
 * answers CPUID from a table read whole. */
#include "cpu.h"
#include "util.h"

#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cpu_force;

/* Names of the feature bits, as /proc/cpuinfo spells them. */
static const char *const l1_ecx[32] = {
	[0] = "sse3", [1] = "pclmulqdq", [2] = "dtes64", [3] = "monitor", [4] = "ds_cpl",
	[5] = "vmx", [6] = "smx", [7] = "est", [8] = "tm2", [9] = "ssse3", [10] = "cid",
	[11] = "sdbg", [12] = "fma", [13] = "cx16", [14] = "xtpr", [15] = "pdcm",
	[17] = "pcid", [18] = "dca", [19] = "sse4_1", [20] = "sse4_2", [21] = "x2apic",
	[22] = "movbe", [23] = "popcnt", [24] = "tsc_deadline_timer", [25] = "aes",
	[26] = "xsave", [27] = "osxsave", [28] = "avx", [29] = "f16c", [30] = "rdrand",
	[31] = "hypervisor",
};
static const char *const l1_edx[32] = {
	[0] = "fpu", [1] = "vme", [2] = "de", [3] = "pse", [4] = "tsc", [5] = "msr",
	[6] = "pae", [7] = "mce", [8] = "cx8", [9] = "apic", [11] = "sep", [12] = "mtrr",
	[13] = "pge", [14] = "mca", [15] = "cmov", [16] = "pat", [17] = "pse36", [18] = "pn",
	[19] = "clflush", [21] = "ds", [22] = "acpi", [23] = "mmx", [24] = "fxsr",
	[25] = "sse", [26] = "sse2", [27] = "ss", [28] = "ht", [29] = "tm", [31] = "pbe",
};
static const char *const l7_ebx[32] = {
	[0] = "fsgsbase", [1] = "tsc_adjust", [2] = "sgx", [3] = "bmi1", [4] = "hle",
	[5] = "avx2", [7] = "smep", [8] = "bmi2", [9] = "erms", [10] = "invpcid",
	[11] = "rtm", [14] = "mpx", [16] = "avx512f", [17] = "avx512dq", [18] = "rdseed",
	[19] = "adx", [20] = "smap", [21] = "avx512ifma", [23] = "clflushopt", [24] = "clwb",
	[25] = "intel_pt", [26] = "avx512pf", [27] = "avx512er", [28] = "avx512cd",
	[29] = "sha_ni", [30] = "avx512bw", [31] = "avx512vl",
};
static const char *const l7_ecx[32] = {
	[0] = "prefetchwt1", [1] = "avx512vbmi", [2] = "umip", [3] = "pku", [4] = "ospke",
	[5] = "waitpkg", [6] = "avx512_vbmi2", [7] = "shstk", [8] = "gfni", [9] = "vaes",
	[10] = "vpclmulqdq", [11] = "avx512_vnni", [12] = "avx512_bitalg", [13] = "tme",
	[14] = "avx512_vpopcntdq", [16] = "la57", [22] = "rdpid", [23] = "keylocker",
	[24] = "bus_lock_detect", [25] = "cldemote", [27] = "movdiri", [28] = "movdir64b",
	[29] = "enqcmd", [30] = "sgx_lc", [31] = "pks",
};
static const char *const l7_edx[32] = {
	[2] = "avx512_4vnniw", [3] = "avx512_4fmaps", [4] = "fsrm", [5] = "uintr",
	[8] = "avx512_vp2intersect", [11] = "rtm_always_abort", [14] = "serialize",
	[15] = "hybrid", [16] = "tsxldtrk", [18] = "pconfig", [19] = "arch_lbr", [20] = "ibt",
	[22] = "amx_bf16", [23] = "avx512_fp16", [24] = "amx_tile", [25] = "amx_int8",
};
static const char *const l71_eax[32] = {
	[0] = "sha512", [1] = "sm3", [2] = "sm4", [4] = "avx_vnni", [5] = "avx512_bf16",
	[7] = "cmpccxadd", [10] = "fzrm", [11] = "fsrs", [12] = "fsrc", [19] = "wrmsrns",
	[21] = "amx_fp16", [22] = "hreset", [23] = "avx_ifma", [26] = "lam",
};
static const char *const l71_edx[32] = {
	[4] = "avx_vnni_int8", [5] = "avx_ne_convert", [10] = "avx_vnni_int16",
	[14] = "prefetchiti", [19] = "avx10", [21] = "apx_f",
};
static const char *const ld1_eax[32] = {
	[0] = "xsaveopt", [1] = "xsavec", [2] = "xgetbv1", [3] = "xsaves", [4] = "xfd",
};
static const char *const e1_ecx[32] = {
	[0] = "lahf_lm", [1] = "cmp_legacy", [2] = "svm", [3] = "extapic", [4] = "cr8_legacy",
	[5] = "abm", [6] = "sse4a", [7] = "misalignsse", [8] = "3dnowprefetch", [9] = "osvw",
	[10] = "ibs", [11] = "xop", [12] = "skinit", [13] = "wdt", [15] = "lwp", [16] = "fma4",
	[17] = "tce", [19] = "nodeid_msr", [21] = "tbm", [22] = "topoext",
	[23] = "perfctr_core", [24] = "perfctr_nb", [26] = "bpext", [27] = "ptsc",
	[28] = "perfctr_llc", [29] = "mwaitx",
};
static const char *const e1_edx[32] = {
	[11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
	[26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
};
static const char *const xstate[64] = {
	[0] = "x87", [1] = "sse", [2] = "avx", [3] = "mpx bndregs", [4] = "mpx bndcsr",
	[5] = "avx512 opmask", [6] = "avx512 zmm_hi256", [7] = "avx512 hi16_zmm", [8] = "pt",
	[9] = "pkru", [11] = "cet_u", [12] = "cet_s", [13] = "hdc", [14] = "uintr",
	[15] = "lbr", [16] = "hwp", [17] = "amx tilecfg", [18] = "amx tiledata", [19] = "apx",
};

/* The registers whose bits are compared: a bit the recording CPU had
 * must be here. Bits in ignore describe the machine (virtualization,
 * speculation controls a microcode update may change), not instructions
 * a program can use. */
static const struct {
	uint32_t leaf, sub;
	int reg;		/* 0 eax, 1 ebx, 2 ecx, 3 edx */
	uint32_t ignore;
	const char *const *names;
} feat[] = {
	{ 1, 0, 2, 1u << 31, l1_ecx },
	{ 1, 0, 3, 0, l1_edx },
	{ 7, 0, 1, 0, l7_ebx },
	{ 7, 0, 2, 0, l7_ecx },
	{ 7, 0, 3, 0xfc000000u | 1u << 10 | 1u << 9 | 1u << 13, l7_edx },
	{ 7, 1, 0, 0, l71_eax },
	{ 7, 1, 3, 0, l71_edx },
	{ 0xd, 1, 0, 0, ld1_eax },
	{ 0x80000001, 0, 2, 0, e1_ecx },
	{ 0x80000001, 0, 3, 0, e1_edx },
};

static void add(struct cpu_info *c, uint32_t leaf, uint32_t sub)
{
	if (c->n >= CPU_MAX)
		return;
	struct cpu_leaf *l = &c->v[c->n++];
	l->leaf = leaf;
	l->sub = sub;
	__cpuid_count(leaf, sub, l->r[0], l->r[1], l->r[2], l->r[3]);
}

static const struct cpu_leaf *find(const struct cpu_info *c, uint32_t leaf, uint32_t sub)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->v[i].leaf == leaf && c->v[i].sub == sub)
			return &c->v[i];
	return NULL;
}

void cpu_read(struct cpu_info *c)
{
	memset(c, 0, sizeof *c);
	c->cpu = CPU_ANY;
	unsigned max = __get_cpuid_max(0, NULL), emax = __get_cpuid_max(0x80000000, NULL);
	add(c, 0, 0);
	if (max >= 1)
		add(c, 1, 0);
	if (max >= 7) {
		add(c, 7, 0);
		add(c, 7, 1);
	}
	const struct cpu_leaf *l1 = find(c, 1, 0);
	if (l1 && (l1->r[2] & 1u << 27)) {	/* OSXSAVE: xgetbv works */
		uint32_t lo, hi;
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		c->xcr0 = (uint64_t)hi << 32 | lo;
	}
	if (max >= 0xd) {
		add(c, 0xd, 0);
		add(c, 0xd, 1);
		for (int i = 2; i < 63; i++)
			if (c->xcr0 >> i & 1)
				add(c, 0xd, i);
	}
	if (emax >= 0x80000000u) {
		add(c, 0x80000000u, 0);
		if (emax >= 0x80000001u)
			add(c, 0x80000001u, 0);
	}
}

/* Leaves whose answers depend on the subleaf (ecx), and how far their
 * subleaves go: SUB_TYPE until one whose eax bits 4-0 (a cache's type)
 * are 0, SUB_LEVEL until one whose ecx bits 15-8 (a topology level's
 * type) are 0, SUB_MAX up to subleaf 0's eax, SUB_MASK the XSAVE state
 * components the CPU supports, SUB_ALL every one (up to 63) when
 * subleaf 0 is not all zeros. Past them the CPU answers zeros, except
 * for SUB_LEVEL (the x2APIC id, the subleaf echoed). */
enum { SUB_NONE, SUB_TYPE, SUB_LEVEL, SUB_MAX, SUB_MASK, SUB_ALL };

static int subleaves(uint32_t leaf)
{
	switch (leaf) {
	case 4: case 0x8000001d:
		return SUB_TYPE;
	case 0xb: case 0x1f:
		return SUB_LEVEL;
	case 7: case 0x14: case 0x17: case 0x18: case 0x1d: case 0x20: case 0x23: case 0x24:
		return SUB_MAX;
	case 0xd:
		return SUB_MASK;
	case 0xf: case 0x10: case 0x12: case 0x1b: case 0x80000020: case 0x80000026:
		return SUB_ALL;
	}
	return SUB_NONE;
}

/* Leaf, with its subleaves, unless read already. */
static void add_leaf(struct cpu_info *c, uint32_t leaf)
{
	if (!find(c, leaf, 0))
		add(c, leaf, 0);
	const struct cpu_leaf *z = find(c, leaf, 0);
	if (!z)
		return;		/* the table is full */
	uint32_t r0[4];
	memcpy(r0, z->r, sizeof r0);
	uint64_t mask = 0;
	if (subleaves(leaf) == SUB_MASK) {
		if (!find(c, leaf, 1))
			add(c, leaf, 1);
		const struct cpu_leaf *one = find(c, leaf, 1);
		mask = r0[0] | (uint64_t)r0[3] << 32;
		if (one)
			mask |= one->r[2] | (uint64_t)one->r[3] << 32;
	}
	for (uint32_t sub = 1; sub < 64; sub++) {
		const struct cpu_leaf *l = NULL;
		switch (subleaves(leaf)) {
		case SUB_NONE:
			return;
		case SUB_MAX:
			if (sub > r0[0])
				return;
			break;
		case SUB_MASK:
			if (sub >= 2 && !(mask >> sub & 1))
				continue;
			break;
		case SUB_ALL:
			if (!(r0[0] | r0[1] | r0[2] | r0[3]))
				return;
			break;
		}
		if (!(l = find(c, leaf, sub))) {
			add(c, leaf, sub);
			if (!(l = find(c, leaf, sub)))
				return;
		}
		if ((subleaves(leaf) == SUB_TYPE && !(l->r[0] & 0x1f)) ||
		    (subleaves(leaf) == SUB_LEVEL && !(l->r[2] >> 8 & 0xff)))
			return;
	}
}

/* Leaves outside every range (past the highest basic, hypervisor and
 * extended leaves): if all answer zeros, so does any other there. */
static const uint32_t probes[] = { 0x3fffffff, 0x40000100, 0x4000ff00, 0x4fffffff, 0x8fffffff,
				   0xc0000000 };

void cpu_read_whole(struct cpu_info *c, uint32_t cpu)
{
	cpu_set_t before, one;
	int moved = 0;
	if (cpu != CPU_ANY && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof before, &before) == 0) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		moved = sched_setaffinity(0, sizeof one, &one) == 0;	/* moves us now */
	}
	cpu_read(c);
	unsigned a, b, cx, d, max, hmax = 0, emax;
	__cpuid(0, max, b, cx, d);
	for (uint32_t leaf = 0; leaf <= max && leaf <= 0xff; leaf++)
		add_leaf(c, leaf);
	__cpuid(1, a, b, cx, d);
	if (cx >> 31 & 1) {	/* a hypervisor's leaves */
		__cpuid(0x40000000, hmax, b, cx, d);
		for (uint32_t leaf = 0x40000000; leaf <= hmax && leaf <= 0x400000ff; leaf++)
			add_leaf(c, leaf);
	}
	__cpuid(0x80000000, emax, b, cx, d);
	for (uint32_t leaf = 0x80000000; leaf <= emax && leaf <= 0x800000ff; leaf++)
		add_leaf(c, leaf);
	for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
		for (uint32_t sub = 0; sub < 2; sub++)
			if (!find(c, probes[i], sub))
				add(c, probes[i], sub);
	c->whole = c->n < CPU_MAX;	/* else some are missing */
	c->cpu = moved ? cpu : (uint32_t)sched_getcpu();
	if (moved)
		sched_setaffinity(0, sizeof before, &before);
}

int cpu_answer(const struct cpu_info *c, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	int kind = subleaves(leaf);
	const struct cpu_leaf *l = find(c, leaf, kind == SUB_NONE ? 0 : sub);
	if (!l && kind != SUB_NONE && kind != SUB_LEVEL && find(c, leaf, 0)) {
		memset(out, 0, 16);	/* past its last subleaf */
		return 0;
	}
	if (!l && !find(c, leaf, 0)) {	/* outside every range */
		for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
			for (uint32_t s = 0; s < 2; s++) {
				const struct cpu_leaf *p = find(c, probes[i], s);
				if (!p || p->r[0] | p->r[1] | p->r[2] | p->r[3])
					return -1;
			}
		memset(out, 0, 16);
		return 0;
	}
	if (!l)
		return -1;
	memcpy(out, l->r, sizeof l->r);
	return 0;
}

int cpu_same(const struct cpu_info *a, const struct cpu_info *b)
{
	if (a->n != b->n || a->xcr0 != b->xcr0)
		return 0;
	for (uint32_t i = 0; i < a->n; i++) {
		const struct cpu_leaf *l = find(b, a->v[i].leaf, a->v[i].sub);
		if (!l || memcmp(l->r, a->v[i].r, sizeof l->r))
			return 0;
	}
	return 1;
}

int cpu_save(const char *dir, const struct cpu_info *c)
{
	static uint8_t buf[CPU_HDR + CPU_MAX * CPU_ENTRY + CPU_SUM];
	uint32_t v = CPU_VERSION;
	memcpy(buf, CPU_MAGIC, 8);
	memcpy(buf + 8, &v, 4);
	memcpy(buf + 12, &c->n, 4);
	memcpy(buf + 16, &c->xcr0, 8);
	memcpy(buf + 24, &c->cpu, 4);
	memcpy(buf + 28, &c->whole, 4);
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t e[6] = { c->v[i].leaf, c->v[i].sub, c->v[i].r[0], c->v[i].r[1],
				  c->v[i].r[2], c->v[i].r[3] };
		memcpy(buf + CPU_HDR + i * CPU_ENTRY, e, CPU_ENTRY);
	}
	size_t len = CPU_HDR + c->n * CPU_ENTRY;
	uint64_t sum = hash_final(hash_update(HASH_INIT, buf, len), len);
	memcpy(buf + len, &sum, CPU_SUM);
	len += CPU_SUM;
	char tmp[4200], path[4200];
	snprintf(tmp, sizeof tmp, "%s/.cpu.%d", dir, (int)getpid());
	snprintf(path, sizeof path, "%s/cpu", dir);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write_all(fd, buf, len) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int cpu_load(const char *dir, struct cpu_info *c, char *err, size_t errlen)
{
	static uint8_t buf[CPU_HDR + CPU_MAX * CPU_ENTRY + CPU_SUM + 1];
	char path[4200];
	snprintf(path, sizeof path, "%s/cpu", dir);
	memset(c, 0, sizeof *c);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* a FIFO must not hang us */
	if (fd < 0 && errno == ENOENT)
		return 0;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	size_t len = 0;
	ssize_t k;
	while (len < sizeof buf && (k = read(fd, buf + len, sizeof buf - len)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		len += k;
	}
	close(fd);
	if (len < CPU_HDR2) {
		snprintf(err, errlen, "%s: truncated: %zu bytes, the header alone is %d", path, len,
			 CPU_HDR2);
		return -1;
	}
	if (memcmp(buf, CPU_MAGIC, 8)) {
		snprintf(err, errlen, "%s: not a rewind cpu file (bad magic)", path);
		return -1;
	}
	uint32_t v = get32(buf + 8), n = get32(buf + 12);
	/* Version 3 added the CPU and whole to the header, and more entries. */
	size_t hdr = v >= 3 ? CPU_HDR : CPU_HDR2;
	uint32_t max = v >= 3 ? CPU_MAX : 128;
	/* From version 2 on the file ends in a checksum of the bytes before
	 * it: check it first, so that damage anywhere (the version and
	 * count included) is called damage, not another CPU. */
	size_t body = len - CPU_SUM, need = hdr + (size_t)n * CPU_ENTRY + CPU_SUM;
	if (v == CPU_VERSION && n <= max && len < need) {
		snprintf(err, errlen, "%s: truncated: %zu bytes, its %u entries need %zu", path, len,
			 n, need);
		return -1;
	}
	if (v != 1 && (len < hdr + CPU_SUM ||
		       get64(buf + body) != hash_final(hash_update(HASH_INIT, buf, body), body))) {
		if (len < hdr + CPU_SUM)
			snprintf(err, errlen, "%s: truncated: %zu bytes, the header and checksum "
				 "alone are %zu", path, len, hdr + CPU_SUM);
		else
			snprintf(err, errlen, "%s: corrupt: the checksum at offset %zu does not match "
				 "the bytes before it", path, body);
		return -1;
	}
	if (v == 1)
		body = len;	/* from before the checksum */
	if (v > CPU_VERSION) {
		snprintf(err, errlen, "%s: cpu file version %u is newer than this tool's version %d",
			 path, v, CPU_VERSION);
		return -1;
	}
	if (v == 0) {
		snprintf(err, errlen, "%s: unknown cpu file version %u", path, v);
		return -1;
	}
	if (n > max) {
		snprintf(err, errlen, "%s: corrupt: %u entries (at most %u)", path, n, max);
		return -1;
	}
	if (body != hdr + (size_t)n * CPU_ENTRY) {
		snprintf(err, errlen, "%s: %s: %zu bytes, its %u entries need %zu", path,
			 body < hdr + (size_t)n * CPU_ENTRY ? "truncated" : "corrupt", len, n,
			 hdr + (size_t)n * CPU_ENTRY + (len - body));
		return -1;
	}
	c->xcr0 = get64(buf + 16);
	c->cpu = v >= 3 ? get32(buf + 24) : CPU_ANY;
	c->whole = v >= 3 && get32(buf + 28) == 1;
	c->n = n;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = buf + hdr + i * CPU_ENTRY;
		c->v[i].leaf = get32(p);
		c->v[i].sub = get32(p + 4);
		for (int r = 0; r < 4; r++)
			c->v[i].r[r] = get32(p + 8 + 4 * r);
	}
	return 1;
}

/* Append one missing feature's name to the list in why. */
static void name_missing(char *why, size_t len, int *count, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void name_missing(char *why, size_t len, int *count, const char *fmt, ...)
{
	if (++*count > 3)
		return;
	size_t at = strlen(why);
	if (at + 2 < len && *count > 1)
		strcat(why, ", "), at += 2;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why + at, len - at, fmt, ap);
	va_end(ap);
}

/* A leaf as the manuals write it: 7, 0xd, 0x80000001. */
static const char *leaf_name(uint32_t leaf)
{
	static char buf[16];
	snprintf(buf, sizeof buf, leaf < 10 ? "%u" : "%#x", leaf);
	return buf;
}

/* Compare the recording CPU rec with this one. Returns 0 when every
 * feature bit and XSAVE state component rec had is here with the same
 * layout, else -1 with why set ("this CPU lacks avx512f, which the
 * recording CPU had"). */
static int cpu_compare(const struct cpu_info *rec, const struct cpu_info *here, char *why,
		       size_t len)
{
	static const char reg[4][4] = { "eax", "ebx", "ecx", "edx" };
	char list[512] = "";
	int count = 0;
	for (size_t f = 0; f < sizeof feat / sizeof *feat; f++) {
		const struct cpu_leaf *r = find(rec, feat[f].leaf, feat[f].sub);
		const struct cpu_leaf *h = find(here, feat[f].leaf, feat[f].sub);
		uint32_t want = r ? r->r[feat[f].reg] : 0, have = h ? h->r[feat[f].reg] : 0;
		uint32_t miss = want & ~have & ~feat[f].ignore;
		for (int b = 0; b < 32; b++) {
			if (!(miss >> b & 1))
				continue;
			if (feat[f].names[b])
				name_missing(list, sizeof list, &count, "%s", feat[f].names[b]);
			else
				name_missing(list, sizeof list, &count, "cpuid leaf %s%s %s bit %d",
					     leaf_name(feat[f].leaf), feat[f].sub ? " subleaf 1" : "",
					     reg[feat[f].reg], b);
		}
	}
	uint64_t xmiss = rec->xcr0 & ~here->xcr0;
	for (int i = 0; i < 64; i++)
		if (xmiss >> i & 1)
			name_missing(list, sizeof list, &count, "XSAVE state component %d (%s)", i,
				     xstate[i] ? xstate[i] : "unnamed");
	if (count) {
		snprintf(why, len, "this CPU lacks %s%s, which the recording CPU had", list,
			 count > 3 ? " and more" : "");
		return -1;
	}
	/* The same components must be saved at the same offsets with the
	 * same sizes: libc's lazy binding and signal frames lay out XSAVE
	 * areas by what CPUID says. */
	for (int i = 2; i < 63; i++) {
		if (!(rec->xcr0 >> i & 1))
			continue;
		const struct cpu_leaf *r = find(rec, 0xd, i), *h = find(here, 0xd, i);
		if (!r || !h || (r->r[0] == h->r[0] && r->r[1] == h->r[1] && r->r[2] == h->r[2]))
			continue;
		snprintf(why, len, "this CPU's XSAVE layout differs for state component %d (%s): "
			 "%u bytes at offset %u here, %u bytes at offset %u on the recording CPU",
			 i, xstate[i] ? xstate[i] : "unnamed", h->r[0], h->r[1], r->r[0], r->r[1]);
		return -1;
	}
	return 0;
}

void cpu_check_trace(const char *dir, const struct trace_rec *start)
{
	static struct cpu_info rec, here;
	static int warned;
	char err[4400], why[1024];
	int k = cpu_load(dir, &rec, err, sizeof err);
	if (k < 0)
		die(EXIT_TRACE, "%s", err);
	if (k == 0) {
		/* Nothing to check against (a trace from before the cpu
		 * file, or one that lost it): a replay on a CPU without a
		 * recorded feature would diverge far from the cause. */
		if (!cpu_force)
			die(EXIT_TRACE, "%s/cpu: missing: nothing to check this CPU against (run tpack "
			    "on the recording machine to add it, or use --force to try anyway)", dir);
		/* The IT_CPU text can still tell that the CPU differs. */
		static char desc[8192];
		struct trace_item it;
		size_t off = trace_fixed_size(start->kind);
		int differs = 0;
		cpu_desc(desc, sizeof desc);
		while (trace_item(start, &off, &it) > 0)
			if (it.tag == IT_CPU && (it.len != strlen(desc) || memcmp(it.p, desc, it.len)))
				differs = 1;
		if (!warned++)
			warnx_("%s/cpu: missing: %s; replaying anyway (--force)", dir,
			       differs ? "recorded on a different CPU, unchecked" : "this CPU is unchecked");
		return;
	}
	cpu_read(&here);
	if (cpu_compare(&rec, &here, why, sizeof why) == 0)
		return;
	if (!cpu_force)
		die(EXIT_TRACE, "%s; replay may diverge (use --force to try anyway)", why);
	if (!warned++)
		warnx_("%s; replaying anyway (--force)", why);
}
