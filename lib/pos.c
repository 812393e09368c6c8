/* pos.c: taking and matching thread positions by registers and memory
 * hashes (see pos.h). The memory is cut into blocks of at most 64 KiB so
 * that a mismatch is usually found by hashing one block. */
#include "pos.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (64 * 1024)

/* Registers that must agree; eflags without RF and TF, which the stop
 * itself may set. */
static int regs_equal(const struct user_regs_struct *a, const struct user_regs_struct *b)
{
	struct user_regs_struct x = *a, y = *b;
	x.eflags &= ~0x10100ull;
	y.eflags &= ~0x10100ull;
	x.orig_rax = y.orig_rax = 0;
	return !memcmp(&x, &y, sizeof x);
}

static uint64_t block_hash(struct pt_proc *p, uint64_t addr, uint64_t len)
{
	static uint8_t buf[BLOCK];
	ssize_t n = pt_read(p, addr, buf, len);
	uint64_t h = hash_update(HASH_INIT, buf, n > 0 ? (size_t)n : 0);
	return hash_final(h, n > 0 ? (uint64_t)n : 0);
}

int pos_take(struct pt_proc *p, const struct user_regs_struct *r, struct pos *out)
{
	char path[64], line[4500];
	memset(out, 0, sizeof *out);
	out->regs = *r;
	snprintf(path, sizeof path, "/proc/%d/maps", p->pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int cap = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 || perm[1] != 'w' ||
		    strstr(line, "[vvar]") || strstr(line, "[vsyscall]"))
			continue;
		for (uint64_t a = lo; a < hi; a += BLOCK) {
			if (out->nb == cap) {
				cap = cap ? 2 * cap : 64;
				out->b = xrealloc(out->b, cap * sizeof *out->b);
			}
			uint64_t len = hi - a < BLOCK ? hi - a : BLOCK;
			out->b[out->nb++] = (struct pos_block){ a, len, block_hash(p, a, len) };
		}
	}
	fclose(f);
	return 0;
}

int pos_match(struct pt_proc *p, const struct user_regs_struct *r, struct pos *want)
{
	if (!regs_equal(r, &want->regs))
		return 0;
	if (want->front < want->nb) {
		struct pos_block *b = &want->b[want->front];
		if (block_hash(p, b->addr, b->len) != b->hash)
			return 0;
	}
	for (int i = 0; i < want->nb; i++) {
		struct pos_block *b = &want->b[i];
		if (i != want->front && block_hash(p, b->addr, b->len) != b->hash) {
			want->front = i;
			return 0;
		}
	}
	return 1;
}

void pos_free(struct pos *ps)
{
	free(ps->b);
	memset(ps, 0, sizeof *ps);
}
