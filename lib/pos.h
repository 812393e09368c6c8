/* pos.h: places in a thread's run between syscalls, found without
 * hardware counters: the registers plus hashes of the process's writable
 * memory. rec takes one where it preempts a thread; replay stops at the
 * address and compares until the whole state matches. */
#ifndef REWIND_POS_H
#define REWIND_POS_H

#include <stdint.h>
#include <sys/user.h>
#include "pt.h"

struct pos_block {
	uint64_t addr, len, hash;
};

struct pos {
	struct user_regs_struct regs;
	struct pos_block *b;
	int nb;
	int front;		/* the block that differed last (checked first) */
};

/* The place stopped thread p (registers r) is at. 0, or -1 if its memory
 * map cannot be read. */
int pos_take(struct pt_proc *p, const struct user_regs_struct *r, struct pos *out);

/* Whether the stopped thread p with registers r is at want. Registers
 * are compared first; memory is hashed only when they match, the block
 * that differed last time first. */
int pos_match(struct pt_proc *p, const struct user_regs_struct *r, struct pos *want);

void pos_free(struct pos *ps);

#endif
