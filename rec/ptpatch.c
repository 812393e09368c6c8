/* ptpatch.c: a tracer's writes into its tracee's code (see ptpatch.h):
 * the bytes each first changed, kept to tell what its code holds now. */
#include "events.h"
#include "maps.h"
#include "memfile.h"
#include "ptpatch.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#define MAX_PATCHED 65536

static struct { pid_t tgid; uint64_t addr; uint8_t orig; } *kept;
static int nkept, cap;

int ptpatch_readonly(const struct task *t, uint64_t addr, uint64_t len)
{
	FILE *f = maps_open(t->tgid);
	struct maps_line m;
	uint64_t at = addr, end = addr + len;
	int ro = 0, rw = 0;
	if (!f || end < addr)
		return -1;
	while (at < end && maps_next(f, &m)) {
		if (m.hi <= at)
			continue;
		if (m.lo > at)
			break;	/* a hole */
		if (m.perm[1] == 'w')
			rw = 1;
		else
			ro = 1;
		at = m.hi;
	}
	fclose(f);
	if (at < end || ro == rw)
		return -1;
	return ro;
}

static int find(pid_t tgid, uint64_t addr)
{
	for (int i = 0; i < nkept; i++)
		if (kept[i].tgid == tgid && kept[i].addr == addr)
			return i;
	return -1;
}

void ptpatch_note(const struct task *t, uint64_t addr, uint64_t len)
{
	uint8_t b[256];
	for (uint64_t off = 0; off < len; off += sizeof b) {
		uint64_t n = len - off < sizeof b ? len - off : sizeof b;
		if (pt_read((struct pt_proc *)&t->p, addr + off, b, n) != (ssize_t)n)
			return;	/* the write fails too */
		for (uint64_t i = 0; i < n; i++) {
			if (find(t->tgid, addr + off + i) >= 0)
				continue;
			if (nkept == MAX_PATCHED)
				stop_recording(EXIT_TRACE, "the program's tracer changed over %d bytes "
					       "of its tracee's code, which rewind cannot record yet; "
					       "the trace %s ends before it", MAX_PATCHED, rec_dir());
			if (nkept == cap) {
				cap = cap ? 2 * cap : 16;
				kept = xrealloc(kept, cap * sizeof *kept);
			}
			kept[nkept].tgid = t->tgid;
			kept[nkept].addr = addr + off + i;
			kept[nkept++].orig = b[i];
		}
	}
}

void ptpatch_entry(long nr, const uint64_t a[6])
{
	if (nr != SYS_pwrite64 && nr != SYS_write)
		return;
	long target = memfile_target(cur->p.pid, a[0]);
	struct task *t = target > 0 ? find_task(target) : NULL;
	if (!t || !t->tracer || t->tracer->tgid != cur->tgid)
		return;
	int64_t pos = nr == SYS_pwrite64 ? (int64_t)a[3] : pt_fdinfo(cur->p.pid, a[0], "pos:", 10);
	if (pos >= 0 && a[2] && ptpatch_readonly(t, pos, a[2]) == 1)
		ptpatch_note(t, pos, a[2]);
}

void ptpatch_check(const struct task *t)
{
	for (int i = 0; i < nkept; i++) {
		if (kept[i].tgid != t->tgid)
			continue;
		uint8_t now;
		if (pt_read((struct pt_proc *)&t->p, kept[i].addr, &now, 1) != 1 ||
		    now == kept[i].orig) {
			kept[i--] = kept[--nkept];	/* as it was (or unmapped) */
			continue;
		}
		if (now != 0xcc)
			stop_recording(EXIT_TRACE, "the program's tracer let its tracee %d run with its "
				       "code at 0x%llx changed other than by a breakpoint (int3), which "
				       "rewind cannot replay yet; the trace %s ends before it",
				       t->p.pid, (unsigned long long)kept[i].addr, rec_dir());
	}
}

void ptpatch_forget(pid_t tgid)
{
	for (int i = 0; i < nkept; i++)
		if (kept[i].tgid == tgid)
			kept[i--] = kept[--nkept];
}

void ptpatch_fork(pid_t parent, pid_t child)
{
	for (int i = 0, n = nkept; i < n; i++) {
		if (kept[i].tgid != parent || find(child, kept[i].addr) >= 0)
			continue;
		if (nkept == cap) {
			cap = 2 * cap;
			kept = xrealloc(kept, cap * sizeof *kept);
		}
		kept[nkept] = kept[i];
		kept[nkept++].tgid = child;
	}
}
