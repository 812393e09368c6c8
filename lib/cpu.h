/* cpu.h: the trace's cpu file: the CPUID feature leaves and XCR0 of the
 * recording CPU, written by rec (and tpack for older traces) and checked
 * by the replay engine. man/rewind-trace.5 describes the bytes. */
#ifndef REWIND_CPU_H
#define REWIND_CPU_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

#define CPU_MAGIC "RWNDCPUD"	/* 8 bytes, then u32 version, u32 count */
#define CPU_VERSION 2		/* 2 added the checksum; 1 is still read */
#define CPU_HDR 24		/* magic, version, count, u64 xcr0 */
#define CPU_ENTRY 24		/* u32 leaf, subleaf, eax, ebx, ecx, edx */
#define CPU_SUM 8		/* version 2 on: u64 hash of the bytes before */
#define CPU_MAX 128		/* most entries a file may hold */

struct cpu_leaf {
	uint32_t leaf, sub;
	uint32_t r[4];		/* eax, ebx, ecx, edx */
};

struct cpu_info {
	uint64_t xcr0;		/* 0 when the OS has not enabled XSAVE */
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
