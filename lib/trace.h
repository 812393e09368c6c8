/* trace.h: the trace directory's event stream, written by rec and read by
 * replay and tdump. man/rewind-trace.5 is the byte-by-byte description;
 * keep the two in step. */
#ifndef REWIND_TRACE_H
#define REWIND_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_VERSION 2	/* 1 still read: it has no IT_EMITSUM */
#define TRACE_FILE_MAGIC "RWNDEVTS"	/* 8 bytes, then u32 version, u32 0 */
#define TRACE_FILE_HDR 16
#define TRACE_CHUNK_MAGIC 0x4b435752u	/* "RWCK" read as u32 LE */
#define TRACE_CHUNK_HDR 24	/* magic, csize, rsize, nrec (u32), first event (u64) */
#define TRACE_REC_HDR 24	/* kind, flags (u16), size (u32), event (u64), tid, 0 (u32) */
#define TRACE_CHUNK_MAX (1u << 30)	/* largest decompressed chunk */

/* Record kinds. */
enum trace_kind {
	TR_START = 1,	/* event 0: u64 start time (ns, realtime), u32 pid,
			   u32 how rdtsc stopped (enum tsc_way, | TSC_CPUID
			   when CPUID faulted); items IT_CWD, IT_CPU,
			   IT_BUFABI, IT_SIGS, IT_CHAOS */
	TR_SYSCALL = 2,	/* i32 nr, u32 0, u64 args[6], i64 ret; items */
	TR_SIGNAL = 3,	/* u32 signo, u32 flags (TRS_*), 128 bytes siginfo */
	TR_RDTSC = 4,	/* u64 rip, u64 tsc, u32 aux, u32 insn (0 rdtsc, 1 rdtscp) */
	TR_EXIT = 5,	/* i32 wait status, u32 0: the program ended */
	TR_SYSRET = 6,	/* i32 nr, u32 0, i64 ret; items: the end of
			   the thread's syscall whose TR_SYSCALL (flag
			   TRF_ENTRY) came earlier, other threads ran between */
	TR_TASKEXIT = 7, /* i32 wait status, u32 0: a thread or process other
			   than the recorded program's first ended */
	TR_PREEMPT = 8,	/* u64 rip, u64 flags (TRP_*); items IT_REGS,
			   IT_XSTATE, IT_HASHES, IT_BLOCK, IT_XBLOCK: the
			   thread was stopped there, between syscalls, so
			   that another could run or a signal be delivered;
			   replay makes this state */
	TR_CPUID = 9,	/* u64 rip, u32 eax, u32 ecx (the leaf and subleaf
			   asked), u32 eax, ebx, ecx, edx (the answer, per-CPU
			   ids zeroed): a CPUID that faulted (TSC_CPUID) */
};

/* TR_PREEMPT flags. */
#define TRP_RAN 1	/* rec stopped the thread where it ran (not a state a
			   tracer in the program gave it): a debugger may
			   re-execute the stretch to find the place */
#define TRP_SINCE 2	/* IT_HASHES lists, of the private anonymous
			   mappings, only the pages written since the
			   process's previous TR_PREEMPT with this flag */
#define TRP_POINT 4	/* a point (with TRP_RAN and IT_COUNT): the thread is
			   not given this state but re-executes to it: to
			   the first arrival at rip once its count is
			   IT_COUNT's, whose registers and FP state are
			   IT_REGS and IT_XSTATE and whose memory has
			   IT_HASHES' hashes, made with the dead stacks read
			   as zeros; no IT_BLOCK or IT_XBLOCK (only in a
			   trace counted by patcher 3 or later) */

/* TR_SYSCALL record flags. */
#define TRF_NORETURN 1	/* the syscall did not return (exit, exit_group) */
#define TRF_ENTRY 2	/* only the call's entry: ret is 0 (for a clone-like
			   call, the new thread's id), and its result and
			   outputs are in a later TR_SYSRET of the thread */
#define TRF_BUFFERED 4	/* made without a ptrace stop by the preloaded
			   library and logged in its buffer (rec(1)); replay
			   treats it like any other */
#define TRF_ATENTRY 16	/* rec stopped for it at its entry (PTRACE_SYSCALL),
			   not at a seccomp stop: a call the filter lets
			   through (IT_FILTER) made by a thread whose tracer
			   in the tree wanted its calls; replay resumes the
			   thread to stop at the entry the same way */
#define TRF_JOINED 8	/* never in a trace: replay's record of a whole
			   call made of its TRF_ENTRY record and its
			   TR_SYSRET, at the TR_SYSRET's event (shown as
			   that sysret, as tdump shows it) */

/* TR_SIGNAL flags. */
#define TRS_ASYNC 1	/* sent from outside the instruction stream; replay
			   raises it at the same syscall boundary */

/* Items follow a record's fixed part until the record's end: u16 tag,
 * u16 flags, u32 length, then length bytes. A reader skips tags it does
 * not know. */
enum trace_tag {
	IT_MEM = 1,	/* u64 addr, bytes: what the kernel wrote to user memory */
	IT_ARG = 2,	/* flags = argument index; u64 full length, bytes:
			   input data of that argument (strings whole, buffers
			   a prefix of TRACE_ARG_PREFIX bytes, string arrays as
			   NUL-terminated strings one after another) */
	IT_FILE = 3,	/* flags = IF_*; u64 size, i64 mtime ns, u64 hash,
			   u64 file offset, path bytes (no NUL): a file the
			   program executed or mapped; its bytes are in
			   files/HASH (16 lowercase hex digits) */
	IT_REGS = 4,	/* 27 u64: struct user_regs_struct after execve */
	IT_STACK = 5,	/* u64 addr, bytes: the stack from addr to its top
			   after execve */
	IT_EMIT = 6,	/* flags = 1 or 2: bytes the call wrote to rec's
			   stdout or stderr from a file (sendfile, splice,
			   copy_file_range); replay writes them again */
	IT_EMITSUM = 28,	/* flags = 1 or 2: u64 len, u64 hash (util.h) of
			   the bytes a write-family call wrote to rec's
			   stdout or stderr from the program's memory;
			   replay reads them there, checks and writes them
			   again (version 2 on) */
	IT_CWD = 7,	/* bytes: the working directory */
	IT_CPU = 8,	/* bytes: "vendor model flags" text of the CPU */
	IT_HASHES = 9,	/* (u64 addr, u64 len, u64 hash) per block of the
			   process's writable memory at a TR_PREEMPT */
	IT_CHAOS = 10,	/* u64: the seed of rec --chaos (start record) */
	IT_BUFABI = 14,	/* u32: the syscall buffer's ABI revision
			   (lib/bufabi.h BUF_ABI) of the recording rewind
			   (start record; none: an older one, revision 0) */
	IT_COUNT = 26,	/* start record: u32 the patcher's version
			   (COUNT_VERSION, lib/count.h) when rec counted
			   progress, 0 when not, then u32 1 when it did so
			   lazily (count_lazy()); TR_PREEMPT, a
			   TR_SIGNAL without TRS_ASYNC and a TR_SYSCALL
			   rec stopped for: u64 the thread's count there
			   (none: not counted) */
	IT_FILTER = 30,	/* start record: u32 bits of what the seccomp
			   filter let through untraced besides the
			   library's own calls: 1, rt_sigaction that only
			   asks (pt_untraced_queries); none: nothing */
	IT_TRAPACT = 31,	/* in a TR_RDTSC record: u32 signal, u32 flags
			   (1: blocked again, 2: its action set back to
			   the u64 handler, flags, restorer and mask that
			   follow): the kernel's fault for rec's trap
			   unblocked the signal the program blocked (or
			   ignored) and reset its action; rec undid that,
			   and replay, whose fault does the same, too */
	IT_PATCHED = 29,	/* u32 the sites patched: in a syscall record
			   of a trace counted lazily, the process was
			   patched for counting at the call's end (its
			   first thread or timer: count_call_end) */
	IT_DEAD = 27,	/* (u64 from, u64 to) per range: at a point
			   (TRP_POINT), the dead stacks its IT_HASHES were
			   made without (read as zeros) */
	IT_SIGS = 25,	/* u64 ignored, u64 blocked (bit n-1: signal n): the
			   signals rec was started with ignored and its
			   blocked mask, which the program started with
			   (start record; none: an older rec) */
	IT_XSTATE = 11,	/* bytes: the thread's XSAVE area (PTRACE_GETREGSET) */
	IT_TASK = 13,	/* u32 tid, u32 pid: the thread a clone-like call made
			   and its process (the caller's for a thread), as
			   the records name them; u32 the id the thread sees
			   for itself (in a pid namespace, not the same) */
	IT_BLOCK = 12,	/* u64 hash, bytes: a memory block's contents, for
			   this and every later TR_PREEMPT (each is written
			   once; all-zero blocks never) */
	IT_XBLOCK = 24,	/* u64 hash, u64 base, bytes: like IT_BLOCK, the
			   contents given as their XOR with those of the
			   block of hash base (of the same length) that an
			   earlier IT_BLOCK or IT_XBLOCK gave */
	IT_EMUFILE = 20,	/* u64 dev, u64 ino, u32 writable: in an mmap
			   record beside its IT_FILE, the file replay
			   emulates for it (one copy per dev and ino, mapped
			   by every such mapping); writable: the fd was
			   open for writing */
	IT_FPATCH = 21,	/* u64 dev, u64 ino, u64 size, u64 offset, bytes:
			   the call changed an emulated file: its new size,
			   and its bytes at offset after the call */
};

#define IF_EXE 1	/* the executable of an execve */
#define IF_INTERP 2	/* its ELF interpreter (mapped by the kernel) */
#define IF_MAP 4	/* mapped by an mmap call */

#define TRACE_ARG_PREFIX 64

struct trace_rec {
	uint16_t kind, flags;
	uint32_t size;		/* payload length */
	uint64_t event;
	uint32_t tid;
	const uint8_t *p;	/* payload, valid until the next trace_next() */
};

struct trace_item {
	uint16_t tag, flags;
	uint32_t len;
	const uint8_t *p;
};

struct trace_reader {
	int fd;
	char path[4096];	/* the events file, for messages */
	uint64_t off;		/* file offset of the next chunk */
	uint64_t fsize;
	uint8_t *raw;		/* decompressed chunk */
	size_t rawlen, rawpos, rawcap;
	uint8_t *cbuf;
	size_t ccap;
	uint32_t nrec_left;
	uint64_t chunk_off;	/* file offset of the loaded chunk (0: none) */
	uint64_t chunk_first;	/* its first event */
	uint64_t chunk_end;	/* file offset of the chunk after it */
	uint32_t chunk_nrec;	/* its records */
	uint64_t next_event;
	int ended;		/* a TR_EXIT record was read */
	char err[4400];		/* why the last call failed */
};

/* Fixed-width little-endian access (x86-64 is little-endian, so these
 * are plain loads; they exist to say what the bytes are). */
uint16_t get16(const uint8_t *p);
uint32_t get32(const uint8_t *p);
uint64_t get64(const uint8_t *p);

/* Open DIR/events. Returns 0, or -1 with r->err set ("PATH: what"). */
int trace_open(struct trace_reader *r, const char *dir);

/* Read the next record. Returns 1 with *rec filled, 0 at the end of the
 * stream, -1 on a corrupt or truncated file with r->err naming the file
 * and offset. A stream that ends cleanly but without TR_EXIT returns 0
 * with r->ended still 0: the recorder was killed. Bytes after the chunk
 * that holds TR_EXIT are refused when TR_EXIT is read (-1, "garbage
 * after the last chunk at offset N"), so a reader that stops at the exit
 * refuses them as one that reads on does. */
int trace_next(struct trace_reader *r, struct trace_rec *rec);

void trace_close(struct trace_reader *r);

/* The number of the last record of DIR/events, from the chunk headers
 * alone (no decompression): the exit record, or the last record a killed
 * recorder flushed. Returns 0 with *ev set, or -1 with r->err set (r is
 * closed either way). A damaged chunk ends the count there; reading the
 * records finds and names the damage. */
int trace_last_event(struct trace_reader *r, const char *dir, uint64_t *ev);

/* A reader's place in the stream, to come back to with trace_seek(). */
struct trace_pos {
	uint64_t off, chunk_off, chunk_first, next_event;
	size_t rawpos;
	uint32_t nrec_left;
	int ended;
};
void trace_tell(const struct trace_reader *r, struct trace_pos *pos);
/* Return to a place trace_tell() gave. 0, or -1 with r->err set. */
int trace_seek(struct trace_reader *r, const struct trace_pos *pos);

/* Iterate the items of rec starting at byte *off of its payload (start
 * with the size of the kind's fixed part, trace_fixed_size()). Returns 1
 * with *it filled, 0 at the end, -1 if an item overruns the record. */
int trace_item(const struct trace_rec *rec, size_t *off, struct trace_item *it);

/* Size of the fixed part of a record of this kind, before its items. */
size_t trace_fixed_size(int kind);

/* The thread state that preemption record pre holds: its IT_REGS,
 * IT_XSTATE and IT_HASHES items, each left empty (len 0) where absent.
 * 0, or -1 when the record is short or an item overruns it. */
int trace_preempt_state(const struct trace_rec *pre, struct trace_item *regs, struct trace_item *xs,
			struct trace_item *hashes);

/* Did rec stop the thread of preemption record pre where it ran (flag
 * TRP_RAN), rather than record a state a tracer in the program gave it?
 * Only such a place may be searched for by re-executing the stretch
 * (rematch.h). 0 for a record of another kind or a short one. */
int trace_preempt_ran(const struct trace_rec *pre);

/* The thread's count (IT_COUNT) that preemption, signal or call record
 * rec holds: 0 with *c set, or -1 when it has none (not counted). */
int trace_count(const struct trace_rec *rec, uint64_t *c);

/* The recorded rip of preemption record pre. */
uint64_t trace_preempt_rip(const struct trace_rec *pre);

/* Is preemption record pre a point (TRP_POINT), which replay reaches by
 * re-executing the thread instead of setting its state? */
int trace_preempt_point(const struct trace_rec *pre);

/* Syscall record fields. */
struct trace_syscall {
	int32_t nr;	/* as the kernel reads rax: its low 32 bits */
	uint64_t args[6];
	int64_t ret;
};
int trace_syscall(const struct trace_rec *rec, struct trace_syscall *sc);

/* Writer: records are built in memory and flushed as zstd chunks when
 * they pass TRACE_CHUNK_TARGET bytes or when trace_flush() is called. A
 * record declared large (tw_size) is not held whole: it is compressed
 * as it is built and written as a chunk of its own. */
#define TRACE_CHUNK_TARGET (1u << 20)

struct trace_writer {
	int fd;
	uint8_t *buf;
	size_t len, cap, recstart;
	uint32_t nrec;
	uint64_t first_event;
	void *cctx;
	uint8_t *cbuf;
	size_t ccap;
	struct tw_job *job;	/* the helper thread that compresses and writes
				   full chunks while the recording goes on */
	uint64_t good;		/* the file's length up to its last whole chunk */
	int werr;		/* errno of the first failed chunk: no more are
				   written, and the file was cut back to good */
	char *dir;		/* the trace directory */
	size_t declared;	/* the open record's size, as tw_size said (0:
				   not said) */
	size_t stotal, sfed;	/* the streamed record's size (0: none) and
				   the bytes of it handed over so far */
	int sfd;		/* the staging file of streamed chunks + 1 (0:
				   none yet) */
	uint64_t scsize;	/* the compressed bytes staged of its chunk */
	int serr;		/* errno of a failure staging it */
	int level;		/* zstd's level for the next chunk */
	int step;		/* its place in trace.c's levels, when not fixed */
	uint64_t handed;	/* when the last chunk was handed over (ns) */
	uint64_t span, waits, busy;	/* over the last chunks, decaying: the
				   time, rec's waits for the helper, the
				   helper's CPU time (ns) */
	int clevel;		/* the level the compressor is set to */
	int fixed;		/* REWIND_TRACE_LEVEL set: level never moves */
};

/* REWIND_TRACE_LEVEL=N (a zstd level) into *level: 1 if set, 0 if not;
 * another value ends rec with an error (call it before making anything). */
int trace_level_env(int *level);
int trace_create(struct trace_writer *w, const char *dir);
void tw_begin(struct trace_writer *w, int kind, int flags, uint64_t event, uint32_t tid);
void tw_put(struct trace_writer *w, const void *p, size_t n);
void tw_put64(struct trace_writer *w, uint64_t v);
void tw_put32(struct trace_writer *w, uint32_t v);
/* An item: hdr (hlen bytes) then data (dlen bytes). */
void tw_item(struct trace_writer *w, int tag, int flags, const void *hdr, size_t hlen,
	     const void *data, size_t dlen);
/* The record just begun (tw_begin) will be size bytes long, its header
 * included: when that is large (4 MiB or more), it is compressed in
 * pieces of 1 MiB as it is built, in the helper thread, and written as
 * a chunk of its own, so that neither it nor its compressed chunk is
 * held whole. Call before anything else is put into the record; the
 * bytes put must then come to size exactly (else rec aborts). */
void tw_size(struct trace_writer *w, size_t size);
void tw_end(struct trace_writer *w);
/* Whole records made in place, with no record begun: tw_raw_begin gives
 * room for n bytes at the end of the chunk being built (valid until the
 * next call on w), the caller writes records there (each with its
 * TRACE_REC_HDR header), and tw_raw_end adds the first n bytes of it, nrec
 * records numbered from first on, as tw_end adds one. Not calling
 * tw_raw_end drops them. */
uint8_t *tw_raw_begin(struct trace_writer *w, size_t n);
void tw_raw_end(struct trace_writer *w, size_t n, uint32_t nrec, uint64_t first);
/* Drop the record begun, streamed or not: nothing of it reaches the
 * events file, and the next tw_begin may give its event number again. */
void tw_cancel(struct trace_writer *w);
/* Compress and write what is buffered, and wait until every chunk is
 * written. Returns 0 or -1 (errno set), also when writing an earlier
 * chunk failed (tw_end hands full chunks to a helper thread). */
int tw_flush(struct trace_writer *w);
int tw_close(struct trace_writer *w);

#endif
