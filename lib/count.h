/* count.h: a thread's progress counted in software by patched code, so
 * that a debugger's re-execution can run straight to the count at which
 * rec preempted a thread (an accelerator: the recorded state stays in
 * the trace, and the place is still confirmed by comparing state).
 *
 * Counted edges: taken backward jumps (conditional or not, rel8 and
 * rel32), indirect jumps, backward direct calls (recursion) and indirect
 * calls (but through rsp) in executable file mappings. Each is replaced
 * by a jmp to a trampoline (a short one with the whole instructions just
 * before it, moved into the trampoline) that counts DOWN a slot in a
 * data page at COUNT_DATA, one per process; the tracer keeps each thread's
 * value and swaps it in when another thread of the process runs. At zero
 * the trampoline stops at an int3 with the program's own registers.
 * A thread's count is COUNT_BASE minus its slot value. */
#ifndef REWIND_COUNT_H
#define REWIND_COUNT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "pt.h"

#define COUNT_DATA 0x7ffe0000ull	/* the data page: u64 slot, u64 saved rax */
#define COUNT_BASE (1ull << 62)		/* a new thread's slot value */

/* How code is patched for counting: what rec writes in the trace
 * (IT_COUNT) when it counts. Bumped whenever the sites, the trampolines
 * or where they go change, so that replay never patches a trace's
 * program differently from rec. 1: the first; 2: trampolines of code
 * mapped low (a non-PIE executable) go above it, past room for its heap
 * (before, none were found and the code was left uncounted), and no
 * instruction is moved from before a function's start to after it;
 * 3: preemptions may be points (TRP_POINT in lib/trace.h), which older
 * readers would not re-execute: they refuse the trace by this number;
 * 7: a process may be patched only at its first thread or timer (the
 * start record says whether: IT_COUNT's second word), and backward and
 * indirect calls are counted too; 8: IT_PATCHED may mark a call after
 * the one that made the first thread or timer (count_call_end), which
 * a reader of 7 would not patch at. A trace of 7 is patched the same,
 * and replays (COUNT_SAME_SINCE). */
#define COUNT_VERSION 8
#define COUNT_SAME_SINCE 7

/* Turn counting on or off, once per process. rec passes -1: on when
 * REWIND_NO_COUNT=1 is not set (the default), lazy unless
 * REWIND_COUNT_EAGER=1. Replay passes what the trace says (0, or the
 * COUNT_VERSION rec had, and whether it was lazy), because the program
 * must see the same code; another version ends replay with an error.
 * Returns 0 (off) or COUNT_VERSION. */
int count_choose(int recorded, int recorded_lazy, const char *dir);
int count_on(void);

/* Whether counting is lazy: a process is patched only at the end of
 * its first call that makes a thread or arms a timer (count_call_end),
 * not at its exec: one that never does runs unpatched and uncounted
 * (its preemptions and signals are recorded as without counting). */
int count_lazy(void);

/* Process key, thread tid is at the end of a successful execve: map its
 * data page, patch the new image's executable file mappings; tid runs. */
void count_exec(struct pt_proc *p, uint32_t key, uint32_t tid, const char *exe);

/* After syscall nr (recorded arguments a, result ret) of process key, p
 * stopped at its end: an mmap of a file with PROT_EXEC is patched; munmap
 * and mremap forget the places they remove. file as for tsc_syscall(). */
void count_syscall(struct pt_proc *p, uint32_t key, long nr, const uint64_t a[6], int64_t ret,
		   const char *file);

/* rec: after call nr (arguments a, result ret) of thread tid of process
 * key (p, stopped at its end; made_thread: the call made a thread of
 * the process). A lazily counted process is patched once a call made a
 * thread or armed a timer (setitimer, alarm, timer_settime): at the end
 * of that call, or of the first after it at which others_clear() says
 * its other threads allow it, if every file it mapped code of is still
 * the one it mapped. Returns 1 when it was: rec marks the call's record
 * (IT_PATCHED), for count_patch_now(). */
int count_call_end(struct pt_proc *p, uint32_t key, uint32_t tid, long nr, const uint64_t a[6],
		   int64_t ret, int made_thread, int (*others_clear)(void));

/* replay: the call's record says rec patched lazily counted process key
 * at its end (p: thread tid, stopped there): the same now. */
void count_patch_now(struct pt_proc *p, uint32_t key, uint32_t tid);

/* A debugger with int3s in the code (gdbstub) says what its bytes were:
 * patching a lazily counted process compares and writes back the
 * program's own bytes there, so the debugger must put its int3s in again
 * after count_activations() changed (and lose those now inside a moved
 * instruction: count_moved). */
void count_debugger(void (*bytes)(uint32_t key, uint64_t addr, uint8_t *buf, size_t len));
unsigned long count_activations(void);

/* The program's own bytes of [addr, addr + len) of process key, read
 * into buf: what the debugger's int3s and rdtsc's patches hid, put back. */
void count_own_bytes(uint32_t key, uint64_t addr, uint8_t *buf, size_t len);

/* Process child was forked from process parent: same code, same places. */
void count_fork(uint32_t parent, uint32_t child);

/* Thread tid of process key (p: any of its threads, stopped) runs next:
 * its slot value goes into the data page, the one there before back to
 * the thread that had it. */
void count_switch(struct pt_proc *p, uint32_t key, uint32_t tid);

/* Whether process key is counted (patched): a preemption of it takes a
 * point, not its memory. */
int count_counted(uint32_t key);

/* Thread tid's count (it holds the slot: count_switch() first). Returns
 * 0, or -1 when its process is not counted. */
int count_get(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t *count);

/* Make thread tid's count c (a recorded state set). */
void count_set(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t c);

/* Arm thread tid (holding the slot) to trap when its count reaches want.
 * Returns 1 armed, 0 when the count is want already, -1 when it is past
 * want or not counted. */
int count_arm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want);

/* p (thread tid of process key) stopped with SIGTRAP at rip: if it is a
 * trampoline's count trap, take it: make its count want (what it was
 * armed for) and its flags what rec's run had there, step it back into
 * the program's code (to the counted edge's target) and return 1; else 0. */
int count_trapped(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t want);

/* The first half of count_trapped(): the trap is taken (slot and flags
 * made as an unarmed run has them) and p stays inside the trampoline,
 * for count_step_out(). *at: in, the count the thread was armed for;
 * out, its count at this trap (less when it was disarmed and armed again
 * after it took the trap, before its SIGTRAP was seen). Returns 1, or 0
 * when rip is not a trap. */
int count_take_trap(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t rip, uint64_t *at);

/* Thread tid, armed for want (count_arm) and stopped before its trap,
 * gets its true count back in its slot, whether it holds the slot or
 * another thread took it since. (An armed slot holds the edges left:
 * count_get reads it only disarmed.) */
void count_disarm(struct pt_proc *p, uint32_t key, uint32_t tid, uint64_t want);

/* Thread p of process key, stopped, is made to leave the trampoline it
 * may be in, one step at a time, so that a recorded place is always in
 * the program's own code (r: its registers, updated). A signal that stops
 * it on the way is passed over (not delivered) and the steps go on:
 * returns how many came, the first max of them in si[], for the caller
 * to hold. */
int count_step_out(struct pt_proc *p, uint32_t key, struct user_regs_struct *r, siginfo_t *si,
		   int max);

/* Whether process key is counted and every executable mapping of pid
 * is one counting saw (patched, or found without edges to count): no
 * JIT code, nothing made executable by mprotect. rec takes a point only
 * then (and not inside a trampoline: count_in_tramp, count_moved). */
int count_seen_all(pid_t pid, uint32_t key);

/* Process key (p: a thread of it) is traced by a tracer in the recorded
 * tree (PTRACE_TRACEME, PTRACE_ATTACH or PTRACE_SEIZE succeeded): its code is given back its original
 * bytes and it is counted no more, nor what it execs, so that its tracer
 * sees the program's own code. Made at the same event in rec and replay. */
void count_traced(struct pt_proc *p, uint32_t key);

/* Whether rip of process key is inside a trampoline (stop there is moved
 * out by stepping, before anyone sees it). */
int count_in_tramp(uint32_t key, uint64_t rip);

/* Whether addr is inside a patched place of process key but not at its
 * first byte: an instruction moved into a trampoline, where an int3 in
 * the original code would never be reached. */
int count_moved(uint32_t key, uint64_t addr);

/* The same, or for a process counted lazily and not patched yet whether
 * addr will be so once it is (from the plans of the code there; p: a
 * thread of it, stopped). For a debugger's breakpoints. */
int count_will_move(struct pt_proc *p, uint32_t key, uint64_t addr);

/* buf holds len bytes of key's memory read from addr: put back the
 * original bytes of every patched place in it (what gdb is shown). */
void count_unpatch(uint32_t key, uint64_t addr, uint8_t *buf, size_t len);

/* Process key's places, trampolines and threads' slots as bytes in a
 * malloc'd *buf, for checkpoints; returns the length. count_import() makes
 * them key's (memory already holds the patches). */
size_t count_export(uint32_t key, uint8_t **buf);
void count_import(uint32_t key, const uint8_t *p, size_t len);

/* Edges patched and edges found but left uncounted, since the start. */
void count_stats(long *patched, long *uncounted);

#endif
