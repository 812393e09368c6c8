/* cpu.h: the trace's cpu file: the CPUID feature leaves and XCR0 of the
 * recording CPU (or every leaf of the CPU the program ran on, when counted),
 * written by rec (and tpack for older traces) and checked and answered
 * from by the replay engine. man/rewind-trace.5 describes the bytes. */
#ifndef REWIND_CPU_H
#define REWIND_CPU_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

#define CPU_MAGIC "RWNDCPUD"	/* 8 bytes, then u32 version, u32 count */
#define CPU_VERSION 3		/* 3 added the CPU and whole; 2 the checksum */
#define CPU_HDR 32		/* magic, version, count, u64 xcr0, u32 cpu, whole */
#define CPU_HDR2 24		/* versions 1 and 2: without cpu and whole */
#define CPU_ENTRY 24		/* u32 leaf, subleaf, eax, ebx, ecx, edx */
#define CPU_SUM 8		/* version 2 on: u64 hash of the bytes before */
#define CPU_MAX 4096		/* most entries a file may hold (128 before 3) */

struct cpu_leaf {
	uint32_t leaf, sub;
	uint32_t r[4];		/* eax, ebx, ecx, edx */
};

struct cpu_info {
	uint64_t xcr0;		/* 0 when the OS has not enabled XSAVE */
	uint32_t cpu;		/* the CPU read (whole), else CPU_ANY */
	uint32_t whole;		/* every leaf CPUID answers (cpu_read_whole) */
	uint32_t n;
	struct cpu_leaf v[CPU_MAX];
};

/* Set (by replay --force, or gdbstub's) before eng_open to replay on a
 * CPU that lacks features the recording CPU had, or a trace without a
 * cpu file: the check warns instead of refusing. */
extern int cpu_force;

/* Read this CPU: leaves 0, 1, 7 (subleaves 0 and 1), 0xd (subleaves 0,
 * 1 and each state component XCR0 enables), 0x80000000, 0x80000001. */
void cpu_read(struct cpu_info *c);

#define CPU_ANY 0xffffffffu

/* Read every leaf CPU cpu answers (CPU_ANY: the one this thread is on),
 * as the program there sees them, per-CPU ids included: the basic,
 * hypervisor and extended ranges up to their highest leaves, each
 * subleaf of the leaves that have them (4, 7, 0xb, 0xd, 0xf, 0x10, 0x12,
 * 0x14, 0x17, 0x18, 0x1b, 0x1d, 0x1f, 0x20, 0x23, 0x24, 0x8000001d,
 * 0x80000020, 0x80000026: subleaves 0 to 63), and the feature leaves
 * cpu_read reads. The calling thread runs on cpu meanwhile. */
void cpu_read_whole(struct cpu_info *c, uint32_t cpu);

/* What CPUID leaf, sub answers on the CPU c read whole, into out (eax,
 * ebx, ecx, edx; a leaf without subleaves answers alike for any). Returns
 * 0, or -1 when c does not hold it. */
int cpu_answer(const struct cpu_info *c, uint32_t leaf, uint32_t sub, uint32_t out[4]);

/* Whether a and b hold the same leaves with the same answers. */
int cpu_same(const struct cpu_info *a, const struct cpu_info *b);

/* Write c as DIR/cpu (through a temporary name, so the file is whole
 * or absent). Returns 0, or -1 with errno set. */
int cpu_save(const char *dir, const struct cpu_info *c);

/* Read DIR/cpu. Returns 1, 0 if there is no such file (a trace from
 * before rewind kept one), or -1 with err set ("DIR/cpu: what") when it
 * cannot be read or is corrupt (checksum, naming its offset), short or
 * of a newer version. A version 1 file (no checksum) is read as before. */
int cpu_load(const char *dir, struct cpu_info *c, char *err, size_t errlen);

/* The replay engine's check of the trace in dir, whose start record is
 * start: dies (status 125) naming the missing feature, a corrupt cpu
 * file or a missing one ("DIR/cpu: missing: ..."), or warns instead
 * under cpu_force (once; without a cpu file, the IT_CPU text tells
 * whether the CPU differs). A corrupt or newer file is refused even
 * under cpu_force. */
void cpu_check_trace(const char *dir, const struct trace_rec *start);

#endif
