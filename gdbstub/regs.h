/* regs.h: x86-64 registers as gdb sees them: the target description
 * (core, SSE, Linux, segment bases, AVX) and 'g'/'p' replies for a tracee. */
#ifndef REWIND_REGS_H
#define REWIND_REGS_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/user.h>

/* Register numbers in the description (also those of stop replies). */
#define REGS_RBP 6
#define REGS_RSP 7
#define REGS_RIP 16

/* Bytes for a 'g' reply and its NUL: 16 GPRs, rip, eflags, 6 segment
 * registers, st0-7, 8 x87 control registers, xmm0-15, mxcsr, orig_rax,
 * fs_base, gs_base, ymm0h-15h, two hex digits a byte. */
#define REGS_HEX_MAX (2 * (16 * 8 + 8 + 4 + 6 * 4 + 8 * 10 + 8 * 4 + 16 * 16 + 4 + 8 + 2 * 8 + 16 * 16) + 1)

/* The target description document for a qXfer:features:read annex: only
 * "target.xml" (it includes no others). NULL for another annex, or if
 * building it ran out of memory. *len gets its length. */
const char *regs_xml(const char *annex, size_t *len);

/* Write every register in description order as hex, for a 'g' reply: the
 * general registers from *r (fetched by the caller, orig_rax fixed up),
 * the x87/SSE/AVX state of pid by PTRACE_GETREGSET NT_X86_XSTATE, else
 * NT_PRFPREG (upper ymm halves zero), else zeros. buf must hold
 * REGS_HEX_MAX bytes; it is NUL-terminated. Returns the string length. */
size_t regs_hex_all(pid_t pid, const struct user_regs_struct *r, char *buf);

/* Write register regno of the description as hex, for a 'p' reply, the
 * same way; buf must hold 33 bytes (the widest is 128 bits). Returns the
 * length, or -1 for an unknown number. */
int regs_hex_one(pid_t pid, const struct user_regs_struct *r, int regno, char *buf);

/* Set register regno of the description from a 'P' packet's hex value:
 * a general register in *r (the caller sets *r on the thread), the
 * others on thread pid at once (PTRACE_SETREGSET NT_X86_XSTATE).
 * Returns 0, or -1 for an unknown number or a malformed value. */
int regs_set_one(pid_t pid, struct user_regs_struct *r, int regno, const char *hex);
/* The same for every register a 'G' packet's hex holds, in description
 * order. */
int regs_set_all(pid_t pid, struct user_regs_struct *r, const char *hex);

#endif
