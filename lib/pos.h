/* pos.h: a thread's state where rec stopped it between syscalls (to let
 * another thread run or deliver a signal): registers, FP/vector state and
 * the process's writable memory in hashed blocks. Replay makes the state
 * so, writing the blocks that differ (gdbstub first runs the thread to the
 * place, found by comparing with them: rematch.h). */
#ifndef REWIND_POS_H
#define REWIND_POS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "pt.h"

#define POS_BLOCK (64 * 1024)

/* A block is POS_BLOCK bytes or fewer with the hash of its bytes, or a
 * run of any length that is all zeros, with the hash POS_ZERO (the
 * untouched pages of an anonymous mapping, found without reading them). */
struct pos_block {
	uint64_t addr, len, hash;
};
#define POS_ZERO 0

struct pos {
	struct pos_block *b;
	uint8_t *full;		/* each block: 1 when it was read and holds
				   a byte that is not zero */
	uint8_t **data;		/* each block's bytes once pos_fill() read
				   them (NULL: all zeros); NULL before */
	int nb;
};

/* Hash the writable memory of stopped thread p into *out, noting which
 * blocks are not all zeros (their bytes are not kept: pos_read() reads
 * one again, pos_fill() all). 0, or -1 if its memory map
 * cannot be read (errno EFBIG: too much of it to read without
 * PAGEMAP_SCAN; REWIND_NO_PAGEMAP_SCAN=1 forces that). With uffd (a
 * userfaultfd of p's process in write-protect async mode; -1: none),
 * only what changed since the last take: the blocks of the pages
 * written since in each private anonymous mapping registered with it
 * (written pages that are all zeros too), and whole every other
 * writable mapping, but for the pages of a file mapping that are
 * neither present nor swapped, which read as the file (with
 * PAGEMAP_SCAN; not listed). A private anonymous mapping not yet registered is
 * registered and protected first. So the result lists the blocks that
 * may differ from the state of the last take; the rest of memory is as
 * it was then. */
int pos_take_since(struct pt_proc *p, int uffd, struct pos *out);
void pos_free(struct pos *ps);

/* Read the bytes of block b of p again into buf (POS_BLOCK bytes at
 * most): 1 when they still hash as b says, 0 when they changed (the
 * kernel wrote there since, ending another thread's read, say). */
int pos_read(struct pt_proc *p, const struct pos_block *b, uint8_t *buf);

/* Read the bytes of every block of ps that was read into ps->data, and
 * make its hash and fullness theirs: for a record made again after a
 * block changed under pos_read(), from bytes that cannot change. */
void pos_fill(struct pt_proc *p, struct pos *ps);

/* Block contents replay has seen in the trace, by hash (posstore.c).
 * Kept compressed in an unlinked file under $TMPDIR, so that replay's
 * memory does not grow with the trace's preemptions; in memory where no
 * such file can be made or written, or with REWIND_NO_SPILL=1. A helper
 * thread, free of the pin (pin.h), compresses and writes them while
 * replay goes on (REWIND_NO_SPILL_THREAD=1: replay does it in line);
 * the blocks added since the last pos_store_fence() stay in memory too,
 * up to 64 MiB, for the record that brought them. A store whose blocks
 * are all empty (rec's record of what it wrote) is a set. */
struct pos_store {
	struct pos_slot {
		uint64_t hash;
		uint8_t *data;		/* in memory, or NULL */
		uint64_t off;		/* else its compressed bytes' place in fd */
		uint32_t len, clen;
		int used;
	} *slot;
	size_t cap, n;
	int fd;			/* the spill file + 1; 0: none yet; -1: none */
	uint64_t end;		/* its length (the helper's while it runs) */
	uint64_t gen;		/* pos_store_fence()s so far */
	struct spiller *sp;	/* the helper and its queue, or NULL */
};
void pos_store_add(struct pos_store *s, uint64_t hash, const uint8_t *data, uint32_t len);
int pos_store_has(const struct pos_store *s, uint64_t hash);
/* The blocks added from here on belong to a new record: the previous
 * record's may leave memory once written to the spill file. */
void pos_store_fence(struct pos_store *s);
/* Free what the store holds and empty it. */
void pos_store_free(struct pos_store *s);
/* The bytes of the block with that hash, *len its length; NULL if none.
 * They stay valid until the next pos_store_get (on any store), or the
 * next pos_store_add or pos_store_fence on this one. */
const uint8_t *pos_store_get(const struct pos_store *s, uint64_t hash, uint32_t *len);

/* rec's copy of the contents it last recorded of each block, by process
 * and address: a block that changes is then written as its XOR with
 * that copy (IT_XBLOCK), mostly zeros where a few bytes of a page
 * changed, which the trace's compression makes small. A copy keeps
 * only the pages of the block that are not all zeros. */
struct pos_shadow {
	struct {
		uint64_t addr, hash;
		uint8_t *data;		/* its pages that are not all zeros */
		uint32_t len;
		uint32_t mask;		/* bit k: page k is in data */
		int pid;
	} *slot;
	size_t cap, n;
	uint64_t bytes;		/* the blocks copied, in all (zero pages too) */
};
/* The most it copies (counting zero pages): past it, a new block is not
 * kept (its changes are then recorded whole), so rec's memory does not
 * follow a program that writes gigabytes. */
#define POS_SHADOW_MAX (64ull << 20)
/* Is there a copy of block [addr, addr + len) of process pid? */
int pos_shadow_has(const struct pos_shadow *s, int pid, uint64_t addr, uint32_t len);
/* That copy, *hash its hash; NULL if none of that length. Valid until
 * the next pos_shadow_get. */
const uint8_t *pos_shadow_get(const struct pos_shadow *s, int pid, uint64_t addr, uint32_t len,
			      uint64_t *hash);
/* Keep data (len bytes, hash) as that copy (a new one only while the
 * copies hold less than POS_SHADOW_MAX). */
void pos_shadow_set(struct pos_shadow *s, int pid, uint64_t addr, uint32_t len, uint64_t hash,
		    const uint8_t *data);
/* Process pid ended or replaced its memory: drop its copies. */
void pos_shadow_forget(struct pos_shadow *s, int pid);

/* Make p's memory the recorded blocks b[0..nb): each block whose hash
 * differs is written from the store (or zeroed). Returns 0, or -1 with
 * why filled when a block's bytes are missing or cannot be written. */
int pos_apply(struct pt_proc *p, const struct pos_block *b, int nb, struct pos_store *s,
	      char *why, size_t wlen);

/* Does p's memory hold the recorded blocks b[0..nb) (each block's hash,
 * each zero run zeros), but in the ranges skip[0..nskip) ({from, to})?
 * A block that overlaps those is compared byte by byte with its bytes
 * in s (unequal when they are not there). Starts with block *first (the
 * one that differed last time, -1 for none) and leaves in it the one
 * that differs now. */
int pos_same(struct pt_proc *p, const struct pos_block *b, int nb, const struct pos_store *s,
	     const uint64_t (*skip)[2], int nskip, int *first);

/* The hash of len bytes of memory at addr (at most POS_BLOCK) with the
 * parts in the ranges skip[0..nskip) read as zeros: a point's blocks
 * (TRP_POINT) are hashed so, skipping the dead stacks, which may differ
 * between rec and replay. pos_same() with no store compares so. */
uint64_t pos_hash_masked(uint64_t addr, const uint8_t *bytes, uint64_t len,
			 const uint64_t (*skip)[2], int nskip);

/* The dead parts of the stacks of process pid whose threads' stack
 * pointers are sps[0..n): from the bottom of the mapping each is in up
 * to POS_RED_ZONE below it (what lies there is not read again before it
 * is written). Fills dead[] (at most max); returns how many. */
#define POS_RED_ZONE 128
int pos_dead_stacks(pid_t pid, const uint64_t *sps, int n, uint64_t (*dead)[2], int max);

/* p has just returned from a signal handler (rt_sigreturn: sp_in, its
 * stack pointer at the call, points into the signal frame; sp, the one
 * it got back): the frame's bytes, below sp's red zone and so dead, are
 * made zeros. The kernel's XSAVE into the frame skips components in
 * their initial state, leaving stale bytes there that differ between a
 * recording and its replay, and a later deeper call leaves some of them
 * in its frames' padding, where a point compares them. rec and replay
 * both do it, only for counted traces. A frame elsewhere (an alternate
 * signal stack) is left alone. */
void pos_scrub_frame(struct pt_proc *p, uint64_t sp_in, uint64_t sp);

/* Each thread's stack pointer at its process's last preemption record,
 * kept by rec: a thread that ended since leaves its dead stack behind (a
 * signal frame, what the syscall buffer's library wrote there), and it
 * stays left out of the hashes of a point (whose IT_DEAD tells replay
 * which ranges were left out). */
struct pos_gone {
	struct { uint32_t tgid, tid; uint64_t sp; } *e;
	size_t n, cap;
};
/* The live threads tids[0..n) of process tgid have stack pointers
 * sps[0..n): those of its threads seen before and not among them are
 * appended (up to max), and the live ones kept. Returns the new n. */
int pos_gone_sps(struct pos_gone *g, uint32_t tgid, uint64_t *sps, const uint32_t *tids, int n,
		 int max);
/* Process tgid ended or replaced its memory. */
void pos_gone_forget(struct pos_gone *g, uint32_t tgid);

#endif
