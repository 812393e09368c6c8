/* bufabi.h: the memory layout shared by the syscall-buffering library
 * (buf/rwbuf.c), rec, which drains its log into the trace, and the replay
 * engine, which fills it with the recorded calls for the library to answer. */
#ifndef REWIND_BUFABI_H
#define REWIND_BUFABI_H

#include <stdint.h>

/* The library maps BUF_SIZE bytes at BUF_ADDR: one read+exec page holding
 * `syscall; ret` (rec's seccomp filter lets a call whose instruction
 * pointer is BUF_UNTRACED_IP through without a stop), then the header
 * page, then the buffer. The address is far from where the kernel puts
 * programs, heaps and mappings with randomization off, and is ordinary
 * application memory for ASan. */
#define BUF_ADDR 0x3e0000000000ull
/* The revision of this ABI: the layout and entry format below and what
 * buf/rwbuf.c does in each mode. rec writes it in the trace's start
 * record (IT_BUFABI) and replay refuses a trace of another revision, so
 * bump it with any change to them that an older trace would replay
 * differently under. Revision 2 added the redirect table; a trace of
 * revision 1 replays still (its library leaves the table empty).
 * Revision 3: rt_sigaction that only asks passes rec's filter untraced
 * from anywhere (IT_FILTER says so), so the library no longer logs
 * sigaction's asks; a replay before it would find them missing.
 * Revisions 1 and 2 replay still (their traces hold no IT_FILTER). */
#define BUF_ABI 3
#define BUF_PAGE 4096ull
#define BUF_DATA_SIZE (4ull << 20)
#define BUF_SIZE (2 * BUF_PAGE + BUF_DATA_SIZE)
/* Under rec the library logs a call while its log holds less than this
 * (and the call's entry fits the buffer), else the call goes traced and
 * rec drains the log: one that stays in the caches, and that a process
 * fills without faulting in 4 MiB of fresh pages (find | xargs grep
 * under rec: 8,700 -> 6,000 page faults a recording; a limit of 256 KiB
 * gave 5,200, for 30% more ptrace requests). It is what the
 * log holds that counts, not what a call might take: grep asks read for
 * 96 KiB and gets the 14 KiB of a header file. */
#define BUF_REC_DATA (1ull << 20)
#define BUF_UNTRACED_IP (BUF_ADDR + 2)
#define BUF_HDR (BUF_ADDR + BUF_PAGE)
#define BUF_DATA (BUF_ADDR + 2 * BUF_PAGE)
#define BUF_SCRATCH (BUF_HDR + 2048)	/* the library's own, while busy */
#define BUF_MAGIC 0x46554257u	/* "WBUF" */
#define BUF_NFD 1024		/* descriptors the fd sets cover */

/* A libc function whose calls the library's wrapper takes too: a
 * syscall stub (rec's own checks say which, bufredir.c) that libc's own
 * functions call directly, not through the names the library defines.
 * The library fills the header's table at start; at the call that
 * readies the buffer, rec and the replay engine, seeing the same memory,
 * put a jmp to its wrapper in place of each stub's mov of its number. */
struct buf_redirect {
	uint64_t at;	/* libc's stub */
	uint64_t to;	/* the wrapper's entry */
	uint32_t nr;	/* the call the stub makes */
	uint32_t pad;
};
#define BUF_NREDIRECT 8

/* The header. Under rec (mode 1) the library writes magic, busy, used
 * and count; rec writes mode, traced_next and the fd sets,
 * which the library also keeps up to date across the opens, closes and
 * dups it makes itself.
 * Under replay the mode is 0 (every call traced) or, from the engine's
 * loading a run until the thread's next stop, 2: the engine put
 * count entries (rec's, as in the trace) in the buffer, the library
 * answers the thread's next calls from them in order, each after
 * checking its number, arguments and input bytes, and counts them in
 * consumed; a call that does not match goes the traced way, where the
 * engine checks it as usual. The calls the library makes are the same in
 * every mode, only the way they are answered differs. */
struct buf_hdr {
	uint32_t magic;
	uint32_t mode;		/* BUF_MODE_*, or 0: trace every call */
	uint32_t traced_next;	/* rec wants the next call traced (a held
				   signal, or another thread's turn) */
	uint32_t spare;		/* 0 (was: no buffered writes at all; the fd
				   sets say, file by file, since 2026-11-30) */
	uint32_t busy;		/* the library is deciding whether a call
				   goes untraced, or between that call and
				   the end of its entry: no drain, no
				   preemption */
	uint32_t count;		/* entries in the buffer */
	uint64_t used;		/* bytes of the buffer in use */
	uint8_t fd_read[BUF_NFD / 8];	/* bit set: reads of this fd cannot block */
	uint8_t fd_write[BUF_NFD / 8];	/* writes can neither block nor reach rec's
					   stdout or stderr */
	uint8_t fd_close[BUF_NFD / 8];	/* closing it cannot block (a regular file,
					   a directory, /dev/null and the like) */
	uint32_t consumed;	/* replay: entries answered so far */
	uint32_t raw_next;	/* replay: the thread's next call the buffer does
				   not answer is one the library logged under
				   rec, which ran no libc code for it: it goes
				   traced without libc's wrapper too, so that
				   the program's counted code runs the same */
	uint64_t roff;		/* replay: offset of the next entry to answer */
	uint64_t lib_sp;	/* the stack pointer of the running thread's
				   outermost call into the library (0: none),
				   kept by its wrap_common in every mode: its
				   frames above are live, and its way through
				   them differs between rec and replay (rec
				   swaps the value per thread and takes no
				   point below it) */
	struct buf_redirect redirect[BUF_NREDIRECT];	/* (revision 2) */
};
#define BUF_MODE_REC 1
#define BUF_MODE_REPLAY 2

/* A buffer entry: u32 size of what follows, u32 0, then the payload of a
 * TR_SYSCALL record (rewind-trace(5)): u16 nr, u16 0, u32 0, u64 args[6],
 * i64 ret, items IT_ARG and IT_MEM exactly as rec would save them. Entries
 * start at 8-byte boundaries. */
#define BUF_ENT_HDR 8
/* Under rec the library logs its entries otherwise: a header of
 * BUF_LOG_HDR bytes (u32 size of the payload, the rest rec's), the same
 * payload, and no padding: the room of a trace record's header
 * (TRACE_REC_HDR), so that rec reads the log straight into the chunk it
 * builds and makes each header a record's there. Only rec and the
 * library of one build see this log: no trace holds it. */
#define BUF_LOG_HDR 24

#endif
