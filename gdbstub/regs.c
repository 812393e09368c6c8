/* regs.c: x86-64 registers for gdb: one table gives both the target
 * description XML and how to fetch and encode each register. */
#include "regs.h"
#include "pt.h"
#include "rsp.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

/* The XSAVE image as PTRACE_GETREGSET gives it (standard, not compacted,
 * format): the FXSAVE area, its header at 512, then the AVX upper halves
 * at 576 (CPUID leaf 0xd sub-leaf 2 says 576 on every CPU with AVX). */
#define XS_HDR 512
#define XS_AVX 576
#define XS_SIZE (XS_AVX + 16 * 16)
#define XS_ST 32		/* st0-7 in FXSAVE, 16 bytes apart */
#define XS_XMM 160		/* xmm0-15 in FXSAVE */

enum { CORE, SSE, LINUX, SEGMENTS, AVX };
enum { GPR, XS, FTAG };		/* where a register's bytes come from */

struct reg {
	const char *name;	/* printf format taking the index when n > 1 */
	unsigned char n;	/* registers the row describes, 16 bytes apart in the source */
	unsigned char bits;	/* size in the description */
	unsigned char bytes;	/* bytes in the source, zero-extended to bits */
	unsigned char src;
	unsigned short off;	/* in struct user_regs_struct or the XSAVE image */
	unsigned char feature;
	const char *type, *group;
};

#define G(r, bits, type, feature) \
	{ #r, 1, bits, bits / 8, GPR, offsetof(struct user_regs_struct, r), feature, type, NULL }
#define X87(name, bytes, off) { name, 1, 32, bytes, XS, off, CORE, "int", "float" }

/* In description order; the register number is the position. */
static const struct reg regs[] = {
	G(rax, 64, "int64", CORE), G(rbx, 64, "int64", CORE),
	G(rcx, 64, "int64", CORE), G(rdx, 64, "int64", CORE),
	G(rsi, 64, "int64", CORE), G(rdi, 64, "int64", CORE),
	G(rbp, 64, "data_ptr", CORE), G(rsp, 64, "data_ptr", CORE),
	G(r8, 64, "int64", CORE), G(r9, 64, "int64", CORE),
	G(r10, 64, "int64", CORE), G(r11, 64, "int64", CORE),
	G(r12, 64, "int64", CORE), G(r13, 64, "int64", CORE),
	G(r14, 64, "int64", CORE), G(r15, 64, "int64", CORE),
	G(rip, 64, "code_ptr", CORE), G(eflags, 32, "i386_eflags", CORE),
	G(cs, 32, "int32", CORE), G(ss, 32, "int32", CORE), G(ds, 32, "int32", CORE),
	G(es, 32, "int32", CORE), G(fs, 32, "int32", CORE), G(gs, 32, "int32", CORE),
	{ "st%d", 8, 80, 10, XS, XS_ST, CORE, "i387_ext", NULL },
	/* 64-bit FXSAVE: fcw, fsw, abridged ftw, fop, then fip and fdp as
	 * 64-bit offsets whose high halves gdb shows as fiseg and foseg. */
	X87("fctrl", 2, 0), X87("fstat", 2, 2),
	{ "ftag", 1, 32, 2, FTAG, 0, CORE, "int", "float" },
	X87("fiseg", 4, 12), X87("fioff", 4, 8), X87("foseg", 4, 20), X87("fooff", 4, 16),
	X87("fop", 2, 6),
	{ "xmm%d", 16, 128, 16, XS, XS_XMM, SSE, "vec128", NULL },
	{ "mxcsr", 1, 32, 4, XS, 24, SSE, "i386_mxcsr", "vector" },
	G(orig_rax, 64, "int", LINUX),
	G(fs_base, 64, "int", SEGMENTS), G(gs_base, 64, "int", SEGMENTS),
	{ "ymm%dh", 16, 128, 16, XS, XS_AVX, AVX, "uint128", NULL },
};

#define BIT(name, bit) "<field name=\"" name "\" start=\"" #bit "\" end=\"" #bit "\"/>"

/* Feature names and the types their registers use (gdb knows int*,
 * data_ptr, code_ptr, i387_ext, ieee_*, uint128). */
static const char *const features[][2] = {
	[CORE] = { "org.gnu.gdb.i386.core",
		"<flags id=\"i386_eflags\" size=\"4\">" BIT("CF", 0) BIT("PF", 2) BIT("AF", 4)
		BIT("ZF", 6) BIT("SF", 7) BIT("TF", 8) BIT("IF", 9) BIT("DF", 10) BIT("OF", 11)
		BIT("NT", 14) BIT("RF", 16) BIT("VM", 17) BIT("AC", 18) BIT("VIF", 19)
		BIT("VIP", 20) BIT("ID", 21) "</flags>\n" },
	[SSE] = { "org.gnu.gdb.i386.sse",
		"<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
		"<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
		"<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
		"<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
		"<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
		"<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>\n"
		"<union id=\"vec128\"><field name=\"v4_float\" type=\"v4f\"/>"
		"<field name=\"v2_double\" type=\"v2d\"/><field name=\"v16_int8\" type=\"v16i8\"/>"
		"<field name=\"v8_int16\" type=\"v8i16\"/><field name=\"v4_int32\" type=\"v4i32\"/>"
		"<field name=\"v2_int64\" type=\"v2i64\"/><field name=\"uint128\" type=\"uint128\"/>"
		"</union>\n"
		"<flags id=\"i386_mxcsr\" size=\"4\">" BIT("IE", 0) BIT("DE", 1) BIT("ZE", 2)
		BIT("OE", 3) BIT("UE", 4) BIT("PE", 5) BIT("DAZ", 6) BIT("IM", 7) BIT("DM", 8)
		BIT("ZM", 9) BIT("OM", 10) BIT("UM", 11) BIT("PM", 12) BIT("FZ", 15) "</flags>\n" },
	[LINUX] = { "org.gnu.gdb.i386.linux", "" },
	[SEGMENTS] = { "org.gnu.gdb.i386.segments", "" },
	[AVX] = { "org.gnu.gdb.i386.avx", "" },
};

static char *build_xml(size_t *len)
{
	char *xml;
	FILE *f = open_memstream(&xml, len);
	int feature = -1;

	if (!f)
		return NULL;
	fputs("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	      "<target version=\"1.0\">\n<architecture>i386:x86-64</architecture>\n"
	      "<osabi>GNU/Linux</osabi>\n", f);
	for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++) {
		const struct reg *g = &regs[k];
		if (g->feature != feature) {
			if (feature >= 0)
				fputs("</feature>\n", f);
			feature = g->feature;
			fprintf(f, "<feature name=\"%s\">\n%s", features[feature][0],
				features[feature][1]);
		}
		for (int i = 0; i < g->n; i++) {
			fputs("<reg name=\"", f);
			fprintf(f, g->name, i);
			fprintf(f, "\" bitsize=\"%d\" type=\"%s\"", g->bits, g->type);
			if (g->group)
				fprintf(f, " group=\"%s\"", g->group);
			fputs("/>\n", f);
		}
	}
	fputs("</feature>\n</target>\n", f);
	if (fclose(f) != 0) {
		free(xml);
		return NULL;
	}
	return xml;
}

const char *regs_xml(const char *annex, size_t *len)
{
	static char *xml;
	static size_t xmllen;

	if (strcmp(annex, "target.xml") != 0)
		return NULL;
	if (!xml)
		xml = build_xml(&xmllen);
	*len = xmllen;
	return xml;
}

/* The tracee's XSAVE image, the AVX part zero when it is in its initial
 * state or unknown; the FXSAVE image alone without XSAVE; else zeros. */
static void fetch_fp(pid_t pid, unsigned char *xs)
{
	struct iovec iov = { xs, XS_SIZE };
	uint64_t bv;

	memset(xs, 0, XS_SIZE);
	if (ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, &iov) == 0) {
		memcpy(&bv, xs + XS_HDR, sizeof bv);
		if (iov.iov_len < XS_SIZE || !(bv & 4))
			memset(xs + XS_AVX, 0, XS_SIZE - XS_AVX);
		return;
	}
	iov.iov_len = XS_HDR;
	ptrace(PTRACE_GETREGSET, pid, NT_PRFPREG, &iov);
}

/* The full x87 tag word (2 bits a physical register: valid, zero,
 * special, empty) from FXSAVE's abridged one (1 bit: empty or not) and
 * the registers' contents, as gdb expects it. */
static unsigned ftag(const unsigned char *xs)
{
	int top = xs[3] >> 3 & 7;	/* fsw bits 11-13 */
	unsigned tag = 0;

	for (int p = 0; p < 8; p++) {
		const unsigned char *st = xs + XS_ST + 16 * ((p - top + 8) % 8);
		unsigned exp = (st[9] & 0x7f) << 8 | st[8], t;
		uint64_t mant;

		memcpy(&mant, st, sizeof mant);
		if (!(xs[4] >> p & 1))
			t = 3;
		else if (exp == 0x7fff)
			t = 2;
		else if (exp == 0)
			t = mant ? 2 : 1;
		else
			t = mant >> 63 ? 0 : 2;	/* no integer bit: unnormal */
		tag |= t << 2 * p;
	}
	return tag;
}

/* Register i of row g as hex at buf; returns the number of digits. */
static int hex_reg(const struct reg *g, int i, const struct user_regs_struct *r,
		   const unsigned char *xs, char *buf)
{
	unsigned char v[16] = { 0 };
	unsigned t;

	switch (g->src) {
	case GPR:
		memcpy(v, (const char *)r + g->off, g->bytes);
		break;
	case XS:
		memcpy(v, xs + g->off + 16 * i, g->bytes);
		break;
	case FTAG:
		t = ftag(xs);
		v[0] = t;
		v[1] = t >> 8;
		break;
	}
	rsp_hex(buf, v, g->bits / 8);
	return g->bits / 4;
}

size_t regs_hex_all(pid_t pid, const struct user_regs_struct *r, char *buf)
{
	unsigned char xs[XS_SIZE];
	size_t n = 0;

	fetch_fp(pid, xs);
	for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++)
		for (int i = 0; i < regs[k].n; i++)
			n += hex_reg(&regs[k], i, r, xs, buf + n);
	return n;
}

int regs_hex_one(pid_t pid, const struct user_regs_struct *r, int regno, char *buf)
{
	unsigned char xs[XS_SIZE];

	for (size_t k = 0; k < sizeof regs / sizeof regs[0] && regno >= 0; k++) {
		if (regno < regs[k].n) {
			if (regs[k].src != GPR)
				fetch_fp(pid, xs);
			return hex_reg(&regs[k], regno, r, xs, buf);
		}
		regno -= regs[k].n;
	}
	return -1;
}

/* The XSAVE image of thread pid for a change: its length, or -1. */
static ssize_t fp_for_write(pid_t pid, unsigned char *buf, size_t max)
{
	struct pt_proc p = { .pid = pid, .memfd = -1 };
	ssize_t n = pt_getxstate(&p, buf, max);
	return n >= XS_SIZE ? n : -1;
}

/* Register i of row g from len hex digits at hex into *r or xs (marking
 * the XSAVE components it belongs to in use). Returns 0 or -1. */
static int unhex_reg(const struct reg *g, int i, const char *hex, struct user_regs_struct *r,
		     unsigned char *xs)
{
	unsigned char v[16] = { 0 };
	uint64_t bv;
	if (rsp_unhex((char *)v, hex, g->bits / 8) < 0)
		return -1;
	switch (g->src) {
	case GPR:
		memcpy((char *)r + g->off, v, g->bytes);
		return 0;
	case XS:
		memcpy(xs + g->off + 16 * i, v, g->bytes);
		break;
	case FTAG:	/* the full tag word back to FXSAVE's abridged one */
		xs[4] = 0;
		for (int p = 0; p < 8; p++)
			if (((v[0] | v[1] << 8) >> 2 * p & 3) != 3)
				xs[4] |= 1 << p;
		break;
	}
	memcpy(&bv, xs + XS_HDR, sizeof bv);
	bv |= g->off >= XS_AVX ? 4 : 3;
	memcpy(xs + XS_HDR, &bv, sizeof bv);
	return 0;
}

int regs_set_one(pid_t pid, struct user_regs_struct *r, int regno, const char *hex)
{
	static unsigned char xs[1 << 15];
	for (size_t k = 0; k < sizeof regs / sizeof regs[0] && regno >= 0; k++) {
		if (regno >= regs[k].n) {
			regno -= regs[k].n;
			continue;
		}
		if (strlen(hex) != (size_t)regs[k].bits / 4)
			return -1;
		if (regs[k].src == GPR)
			return unhex_reg(&regs[k], regno, hex, r, NULL);
		ssize_t n = fp_for_write(pid, xs, sizeof xs);
		struct pt_proc p = { .pid = pid, .memfd = -1 };
		if (n < 0 || unhex_reg(&regs[k], regno, hex, r, xs) < 0)
			return -1;
		return pt_setxstate(&p, xs, n);
	}
	return -1;
}

int regs_set_all(pid_t pid, struct user_regs_struct *r, const char *hex)
{
	static unsigned char xs[1 << 15];
	ssize_t n = fp_for_write(pid, xs, sizeof xs);
	size_t at = 0, len = strlen(hex);
	for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++)
		for (int i = 0; i < regs[k].n; i++) {
			if (at + regs[k].bits / 4 > len)
				goto done;	/* gdb may send fewer */
			if ((regs[k].src != GPR && n < 0) ||
			    unhex_reg(&regs[k], i, hex + at, r, xs) < 0)
				return -1;
			at += regs[k].bits / 4;
		}
done:;
	struct pt_proc p = { .pid = pid, .memfd = -1 };
	return n < 0 ? 0 : pt_setxstate(&p, xs, n);
}
