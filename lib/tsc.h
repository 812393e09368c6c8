/* tsc.h: how rdtsc, rdtscp and CPUID are made to stop the tracee, so that
 * rec can record their values and replay give them back: for rdtsc the
 * kernel's trap (PR_SET_TSC) where it works, else each one found in
 * executable code is patched into a faulting instruction of the same
 * length; CPUID faults where the CPU can (arch_prctl ARCH_SET_CPUID). One
 * back end is chosen once; callers tell it what changes the tracee's code
 * and ask it whether a stop is one of these, never which back end they got. */
#ifndef REWIND_TSC_H
#define REWIND_TSC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/user.h>
#include "pt.h"

/* How a trace was recorded (u32 in its TR_START record): a way of
 * stopping rdtsc, with TSC_CPUID or'ed in when CPUID faulted too. */
enum tsc_way {
	TSC_TRAP = 0,	/* the kernel's trap: PR_SET_TSC, PR_TSC_SIGSEGV */
	TSC_PATCH = 1,	/* patched code: rdtsc -> ud2, rdtscp -> ud2; nop */
};
#define TSC_CPUID_TABLE 0x200	/* CPUID ran unfaulted on the one CPU the
				 * program ran on, whose every answer the cpu
				 * file holds (man/rewind-trace.5); a thread
				 * that left that CPU faulted, answered from
				 * the file, unrecorded; replay faults where its
				 * CPU answers otherwise */
#define TSC_CPUID 0x100	/* CPUID faulted (ARCH_SET_CPUID): TR_CPUID records
			   hold its answers. Older readers refuse the value. */

/* What tsc_stopped() says a stop is. */
enum tsc_insn { TSC_NONE = 0, TSC_RDTSC = 1, TSC_RDTSCP = 2, TSC_CPUID_INSN = 3 };

/* rec: whether CPUID should fault (tsc_want_cpuid, before tsc_choose):
 * where counting is on, whose points hash the loader's memory, and that
 * holds what CPUID said there (the APIC id of the CPU it ran on), or
 * with REWIND_CPUID_FAULT=1; each CPUID then costs a stop (some 70 per
 * program start: a make -j2's recording took 1.2x as long). */
void tsc_want_cpuid(int want);

struct cpu_info;

/* Choose the back end, once per process. rec passes -1: the trap where
 * the probe finds that it works, else patching; CPUID faulting where the
 * probe finds it and rec wants it (REWIND_NO_CPUID_FAULT=1: never). Replay passes the way
 * the trace was recorded: a patched recording is replayed patched (the
 * program saw the patched bytes, and replay must patch the same places),
 * a trapped one with the trap where it works, else patched; CPUID faults
 * exactly when it did in rec. Returns the way chosen (TSC_CPUID included),
 * -1 for a way this build does not know, -2 for a trace whose CPUID
 * faulted on a machine (or with REWIND_NO_CPUID_FAULT=1) without it. */
int tsc_choose(int recorded);

/* rec: the table of the CPU the program runs on, for the cpu file, when
 * tsc_choose chose TSC_CPUID_TABLE (counting wants CPUID's answers kept,
 * every thread runs on one CPU, REWIND_CPUID_FAULT is unset), else NULL. */
const struct cpu_info *tsc_table(void);
/* replay: read the table of the trace in dir, when recorded with it
 * (dies when it is missing, damaged or not whole). */
void tsc_table_load(const char *dir);
/* replay: the CPU of the recording machine the program ran on (its
 * table's), the best to run it on again; -1 when unknown. */
int tsc_table_cpu(void);
/* rec: thread p ends call nr (arguments a) with ret: a sched_setaffinity
 * of its own that lets it leave the table's CPU makes its CPUID fault
 * (answered from the table by tsc_table_answer). Returns 0, or -1 when
 * that failed (errno set). One that moved another thread sets *moved to
 * its id (else 0): tsc_check_cpu(that thread) before it runs again. */
int tsc_left_cpu(struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret, pid_t *moved);
/* rec: thread p (stopped at a call's exit or in its own code) may have
 * been moved off the table's CPU by another: its CPUID faults if so.
 * Returns 0, or -1 when that failed (errno set). */
int tsc_check_cpu(struct pt_proc *p);
/* The table's answer to CPUID leaf in[0], subleaf in[1], into out.
 * Returns 0, or -1 when the table has none. */
int tsc_table_answer(const uint32_t in[2], uint32_t out[4]);
/* replay: a stop si of thread p at a CPUID made to fault for the table:
 * answer it and step past it. Returns 1 if so, 0 if the stop is not one,
 * -1 when the table lacks the leaf (in: the leaf and subleaf asked). */
int tsc_table_cpuid(struct pt_proc *p, const siginfo_t *si, uint32_t in[2]);

/* In the traced child just before its first execve: arm the kernel's
 * trap if the back end wants it (a patched replay arms it too where it
 * works, so that an rdtsc rec could not see faults instead of running
 * unrecorded). Returns 0, or -1 with errno. */
int tsc_arm(void);
/* Whether tsc_arm() arms the kernel's trap (tsc_choose made its choice). */
int tsc_traps(void);

/* Process key (its id as recorded; the same in rec and replay) is at the
 * end of a successful execve (p stopped at the call's exit, with the
 * registers it starts with): its old patches are gone; patch the new
 * image's executable mappings. The kernel let CPUID run again at the
 * execve: make it fault again, by an arch_prctl injected before the new
 * program runs. exe is the file executed, used when the path /proc shows
 * cannot be opened (replay's copy, deleted). Returns 0, or -1 when CPUID
 * could not be made to fault (the caller stops: it would run unrecorded). */
int tsc_exec(struct pt_proc *p, uint32_t key, const char *exe);

/* After syscall nr with the recorded arguments a and result ret in
 * process key (p stopped at the call's end): mmap, mprotect,
 * pkey_mprotect, mremap, munmap and madvise change code or move it; other
 * calls are ignored. file is what an mmap mapped (rec: the file itself;
 * replay: the trace's copy), else NULL. */
void tsc_syscall(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret,
		 const char *file);

/* Process child was forked from process parent: same code, same patches. */
void tsc_fork(uint32_t parent, uint32_t child);

/* Whether the signal stop si of process key at rip is an rdtsc (returns
 * TSC_RDTSC), an rdtscp (TSC_RDTSCP) or a CPUID (TSC_CPUID_INSN) made to
 * stop, or something else (TSC_NONE): the trap's SIGSEGV at one of them
 * (at CPUID only when CPUID faulting was chosen), or SIGILL at a patched
 * place. */
int tsc_stopped(struct pt_proc *p, uint32_t key, const siginfo_t *si, uint64_t rip);

/* Run CPUID here for leaf in[0], subleaf in[1], into out (eax, ebx, ecx,
 * edx), with what differs from CPU to CPU zeroed: the initial APIC id
 * (leaf 1 ebx bits 31-24), the x2APIC id (leaves 0xb and 0x1f edx) and
 * AMD's extended APIC id (leaf 0x8000001e eax), so that a program sees
 * the same answers whichever CPU rec ran on. */
void tsc_cpuid(const uint32_t in[2], uint32_t out[4]);

/* Complete the CPUID at r's rip with the answer out (eax, ebx, ecx, edx;
 * the registers' upper halves cleared, as CPUID does) in p's registers. */
void tsc_cpuid_done(struct pt_proc *p, struct user_regs_struct *r, const uint32_t out[4]);

/* buf holds len bytes of process key's memory read from addr: put back
 * the original bytes of every patched place in it (what gdb is shown). */
void tsc_unpatch(uint32_t key, uint64_t addr, uint8_t *buf, size_t len);

/* The patched places of process key as bytes (16 each: u64 address, u32
 * insn 0 rdtsc / 1 rdtscp, u32 0) in a malloc'd *buf, for checkpoints;
 * returns the length. tsc_import() makes them process key's places
 * (memory already holds the patches). */
size_t tsc_export(uint32_t key, uint8_t **buf);
void tsc_import(uint32_t key, const uint8_t *p, size_t len);

#endif
