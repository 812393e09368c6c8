/* pos.c: taking a thread's memory state as hashed blocks (rec) and making
 * a replayed process's memory match it again (replay); see pos.h. */
#include "pos.h"
#include "bufabi.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_of(const uint8_t *buf, size_t n)
{
	return hash_final(hash_update(HASH_INIT, buf, n), n);
}

static int all_zero(const uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (buf[i])
			return 0;
	return 1;
}

/* Read a block; unreadable bytes count as zeros (both runs see the same). */
static void read_block(struct pt_proc *p, uint64_t addr, uint64_t len, uint8_t *buf)
{
	ssize_t n = pt_read(p, addr, buf, len);
	if (n < (ssize_t)len)
		memset(buf + (n > 0 ? n : 0), 0, len - (n > 0 ? n : 0));
}

int pos_take(struct pt_proc *p, struct pos *out)
{
	char path[64], line[4500];
	static uint8_t buf[POS_BLOCK];
	memset(out, 0, sizeof *out);
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
		/* The syscall buffer differs between rec and replay by
		 * design (bufabi.h); what the program sees is elsewhere. */
		if (lo >= BUF_ADDR && hi <= BUF_ADDR + BUF_SIZE)
			continue;
		for (uint64_t a = lo; a < hi; a += POS_BLOCK) {
			if (out->nb == cap) {
				cap = cap ? 2 * cap : 64;
				out->b = xrealloc(out->b, cap * sizeof *out->b);
				out->data = xrealloc(out->data, cap * sizeof *out->data);
			}
			uint64_t len = hi - a < POS_BLOCK ? hi - a : POS_BLOCK;
			read_block(p, a, len, buf);
			out->b[out->nb] = (struct pos_block){ a, len, hash_of(buf, len) };
			out->data[out->nb] = NULL;
			if (!all_zero(buf, len)) {
				out->data[out->nb] = xmalloc(len);
				memcpy(out->data[out->nb], buf, len);
			}
			out->nb++;
		}
	}
	fclose(f);
	return 0;
}

void pos_free(struct pos *ps)
{
	for (int i = 0; i < ps->nb; i++)
		free(ps->data[i]);
	free(ps->data);
	free(ps->b);
	memset(ps, 0, sizeof *ps);
}

static size_t slot_of(const struct pos_store *s, uint64_t hash)
{
	size_t i = hash & (s->cap - 1);
	while (s->slot[i].data && s->slot[i].hash != hash)
		i = (i + 1) & (s->cap - 1);
	return i;
}

void pos_store_add(struct pos_store *s, uint64_t hash, const uint8_t *data, uint32_t len)
{
	if (2 * (s->n + 1) > s->cap) {
		struct pos_store o = *s;
		s->cap = s->cap ? 2 * s->cap : 256;
		s->slot = calloc(s->cap, sizeof *s->slot);
		if (!s->slot)
			die(EXIT_TRACE, "out of memory");
		for (size_t i = 0; i < o.cap; i++)
			if (o.slot[i].data)
				s->slot[slot_of(s, o.slot[i].hash)] = o.slot[i];
		free(o.slot);
	}
	size_t i = slot_of(s, hash);
	if (s->slot[i].data)
		return;
	s->slot[i].hash = hash;
	s->slot[i].len = len;
	s->slot[i].data = xmalloc(len ? len : 1);
	memcpy(s->slot[i].data, data, len);
	s->n++;
}

int pos_store_has(const struct pos_store *s, uint64_t hash)
{
	return s->cap && s->slot[slot_of(s, hash)].data;
}

void pos_store_free(struct pos_store *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i].data);
	free(s->slot);
	memset(s, 0, sizeof *s);
}

int pos_apply(struct pt_proc *p, const struct pos_block *b, int nb, struct pos_store *s,
	      char *why, size_t wlen)
{
	static uint8_t buf[POS_BLOCK];
	for (int i = 0; i < nb; i++) {
		if (b[i].len > POS_BLOCK) {
			snprintf(why, wlen, "a memory block of %llu bytes", (unsigned long long)b[i].len);
			return -1;
		}
		read_block(p, b[i].addr, b[i].len, buf);
		if (hash_of(buf, b[i].len) == b[i].hash)
			continue;
		const uint8_t *src = NULL;
		if (s->cap) {
			size_t k = slot_of(s, b[i].hash);
			if (s->slot[k].data && s->slot[k].len == b[i].len)
				src = s->slot[k].data;
		}
		if (!src) {
			memset(buf, 0, b[i].len);
			if (hash_of(buf, b[i].len) != b[i].hash) {
				snprintf(why, wlen, "the recorded bytes at 0x%llx are not in the trace",
					 (unsigned long long)b[i].addr);
				return -1;
			}
			src = buf;
		}
		if (pt_write(p, b[i].addr, src, b[i].len) < 0) {
			snprintf(why, wlen, "cannot write memory at 0x%llx", (unsigned long long)b[i].addr);
			return -1;
		}
	}
	return 0;
}
