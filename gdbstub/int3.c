/* int3.c: the stub's hidden int3s in the debugged process's code. They
 * stay in between resumes and come out (tl_flush) before gdb reads memory
 * or a checkpoint is made. */
#include "tlpriv.h"
#include "count.h"

#include <stdint.h>
#include <stdio.h>

/* The timeline whose int3s count_debugger() asks about. */
static struct timeline *bytes_of;
static unsigned long activations_seen;

/* What the code of process key held at [addr, addr + len) before our
 * int3s: their saved bytes put into buf. */
static void int3_bytes(uint32_t key, uint64_t addr, uint8_t *buf, size_t len)
{
	const struct timeline *t = bytes_of;
	for (int k = 0; t && key == t->pid && k < t->ins.n; k++)
		if (t->ins.addr[k] >= addr && t->ins.addr[k] - addr < len)
			buf[t->ins.addr[k] - addr] = t->ins.saved[k];
}

/* Drop entry k of the int3s in the code (the last takes its slot). */
static void int3_forget(struct timeline *t, int k)
{
	t->ins.n--;
	t->ins.addr[k] = t->ins.addr[t->ins.n];
	t->ins.saved[k] = t->ins.saved[t->ins.n];
}

/* Is the int3 at t->ins.addr[k] still there? If not, forget it: the
 * program's own bytes replaced it (an event remapped the code), or the
 * process is gone. */
static int int3_there(struct timeline *t, int k)
{
	uint8_t b;
	struct pt_proc *m = tl_mem(t);
	if (m && pt_read(m, t->ins.addr[k], &b, 1) == 1 && b == 0xcc)
		return 1;
	int3_forget(t, k);
	return 0;
}

/* Take the int3 at t->ins.addr[k] out. */
static void int3_remove(struct timeline *t, int k)
{
	if (int3_there(t, k)) {
		pt_write(tl_mem(t), t->ins.addr[k], &t->ins.saved[k], 1);
		int3_forget(t, k);
	}
}

void tl_flush(struct timeline *t)
{
	while (t->ins.n)
		int3_remove(t, t->ins.n - 1);
}

/* Make the int3s in the debugged process those of s, but none at rip.
 * They stay between resumes (putting them in and out each time doubled
 * the cost of a stop); tl_flush() takes them out before anyone else
 * reads memory. */
void int3_sync(struct timeline *t, const struct stopset *s, uint64_t rip)
{
	struct pt_proc *m = tl_mem(t);
	if (bytes_of != t) {
		bytes_of = t;
		count_debugger(int3_bytes);
	}
	for (int k = t->ins.n - 1; k >= 0; k--)
		if (t->ins.addr[k] == rip || !stopset_has_bp(s, t->ins.addr[k]))
			int3_remove(t, k);
	for (int i = 0; m && i < s->nbp; i++) {
		static const uint8_t cc = 0xcc;
		int k = 0;
		while (k < t->ins.n && t->ins.addr[k] != s->bp[i])
			k++;
		if (k < t->ins.n || s->bp[i] == rip || count_moved(t->pid, s->bp[i]) ||
		    pt_read(m, s->bp[i], &t->ins.saved[k], 1) != 1 ||
		    pt_write(m, s->bp[i], &cc, 1) < 0)
			continue;
		t->ins.addr[t->ins.n++] = s->bp[i];
	}
}

/* After an event: a process forked from the debugged one got copies of
 * its int3s; put its own bytes back. */
static void int3_scrub_new(struct timeline *t)
{
	struct engine *e = &t->e;
	for (int j = 0; j < e->ntasks && t->seen < e->made; j++) {
		struct eng_task *k = &e->tasks[j];
		if (k->born < t->seen || k->rtgid == t->pid || k->rtid != k->rtgid || j == e->ti)
			continue;
		for (int i = 0; i < t->ins.n; i++) {
			uint8_t b;
			if (pt_read(&k->p, t->ins.addr[i], &b, 1) == 1 && b == 0xcc)
				pt_write(&k->p, t->ins.addr[i], &t->ins.saved[i], 1);
		}
	}
	t->seen = e->made;
}

void int3_recheck(struct timeline *t)
{
	/* The process was patched for counting (its first thread or
	 * timer): an instruction moved into a trampoline never runs where
	 * our int3 is, so that breakpoint can no longer stop. */
	int patched = count_activations() != activations_seen;
	activations_seen = count_activations();
	for (int k = t->ins.n - 1; k >= 0; k--) {
		if (patched && count_moved(t->pid, t->ins.addr[k])) {
			fprintf(stderr, "rewind: the breakpoint at 0x%llx no longer stops: the process's code "
				"was patched for counting (at its first thread or timer) and its instruction "
				"moved into a trampoline; record with REWIND_COUNT_EAGER=1 to be told so when "
				"setting it\n", (unsigned long long)t->ins.addr[k]);
			int3_forget(t, k);
			continue;
		}
		int3_there(t, k);
	}
	int3_scrub_new(t);
}
