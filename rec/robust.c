/* robust.c: the marks the kernel makes through robust futex lists when
 * threads end, recorded for replay to write. */
#include "maps.h"
#include "rec.h"
#include "robust.h"
#include "task.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The futex words on the robust list at head (an address in the memory
 * of p), at most max of them, into word; returns how many. */
static int robust_words(struct pt_proc *p, uint64_t head, uint64_t *word, int max)
{
	uint64_t h[3];	/* list, futex_offset, list_op_pending */
	if (!head || pt_read(p, head, h, sizeof h) != sizeof h)
		return 0;
	/* The entries, a circular list back to the head (the low bit of
	 * a link marks a PI mutex), then the one being locked or freed. */
	uint64_t at = h[0] & ~1ull;
	int n = 0;
	while (n < max - 1 && at && at != head) {
		word[n++] = at + h[1];
		if (pt_read(p, at, &at, 8) != 8)
			break;
		at &= ~1ull;
	}
	if (h[2] & ~1ull)
		word[n++] = (h[2] & ~1ull) + h[1];
	return n;
}

/* The futex words the kernel marked (FUTEX_OWNER_DIED) through the
 * robust list of cur, a thread that just ended, as IT_MEM items of the
 * record being built: its live siblings see them, and replay's kernel,
 * which knows the thread by another id than the one in the words, would
 * not mark them. Read through a sibling (the memory is theirs now). */
void robust_marks(void)
{
	struct task *sib = NULL;
	for (int i = 0; i < R.ntasks && !sib; i++)
		if (R.tasks[i] != cur && R.tasks[i]->tgid == cur->tgid)
			sib = R.tasks[i];
	uint64_t word[2049];
	int n = sib ? robust_words(&sib->p, cur->robust, word, 2049) : 0;
	for (int i = 0; i < n; i++) {
		uint32_t w;
		if (pt_read(&sib->p, word[i], &w, 4) == 4)
			tw_item(&R.w, IT_MEM, 0, &word[i], 8, &w, 4);
	}
}

/* Where cur's process sees the word at addr of process tgid: the same
 * address in its own process, or for another process the address in
 * cur's where the same shared memory lies (a process-shared mutex, in a
 * mapping both share, maybe at other addresses); 0 if cur has none. */
static uint64_t shared_in_cur(pid_t tgid, uint64_t addr)
{
	if (tgid == cur->tgid)
		return addr;
	struct maps_line there, here;
	FILE *f = maps_open(tgid);
	int found = 0;
	while (f && !found && maps_next(f, &there))
		found = there.lo <= addr && addr < there.hi;
	if (f)
		fclose(f);
	if (!found || there.perm[3] != 's')
		return 0;
	uint64_t fo = there.off + (addr - there.lo), at = 0;
	f = maps_open(cur->tgid);
	while (f && !at && maps_next(f, &here))
		if (here.perm[3] == 's' && here.ino == there.ino && here.deleted == there.deleted &&
		    !strcmp(here.name, there.name) && here.off <= fo && fo + 4 <= here.off + (here.hi - here.lo))
			at = here.lo + (fo - here.off);
	if (f)
		fclose(f);
	return at;
}

/* The marks (FUTEX_OWNER_DIED) the kernel makes through the robust lists
 * of the threads of process tgid when it ends, as IT_MEM items into w.
 * Read while it still lives; replay writes them through cur, before the
 * end: so where tgid is another process, only the words in memory cur
 * shares with it (a process-shared mutex), where cur sees them. */
void process_robust_marks(pid_t tgid, struct trace_writer *w)
{
	for (int i = 0; i < R.ntasks; i++) {
		struct task *t = R.tasks[i];
		if (t->tgid != tgid || !t->robust)
			continue;
		/* The kernel marks a word that holds the thread's id as
		 * the thread sees it (in its pid namespace). */
		uint32_t tid = self_id(t->p.pid, t->p.pid);
		uint64_t word[2049];
		int n = robust_words(&t->p, t->robust, word, 2049);
		for (int k = 0; k < n; k++) {
			uint32_t v;
			uint64_t at;
			if (pt_read(&t->p, word[k], &v, 4) != 4 || (v & FUTEX_TID_MASK) != tid ||
			    !(at = shared_in_cur(tgid, word[k])))
				continue;
			v = (v & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
			tw_item(w, IT_MEM, 0, &at, 8, &v, 4);
		}
	}
}

/* cur is at the entry of exit_group, or of exit as its process's last
 * thread: the marks the kernel is about to make through the robust lists
 * of the threads that end, as IT_MEM items of the call's record. No
 * sibling outlives them to show the marks afterwards (robust_marks), yet
 * the words may be in memory shared with other processes (a
 * process-shared mutex): replay writes them before the call. */
void exit_robust_marks(long nr)
{
	for (int i = 0; i < R.ntasks; i++)
		if (nr == SYS_exit && R.tasks[i] != cur && R.tasks[i]->tgid == cur->tgid)
			return;
	process_robust_marks(cur->tgid, &R.w);
}

/* cur is at the entry of a kill, tkill, tgkill or pidfd_send_signal
 * (arguments a) that may send SIGKILL to a process of the tree: the
 * marks its end makes, as IT_MEM items of the call's record (staged in
 * w). Replay writes them as the call's outputs: the program learns of
 * the end (wait4) after it. */
void kill_robust_marks(long nr, const uint64_t *a, struct trace_writer *w)
{
	int sig = nr == SYS_tgkill ? (int)a[2] : (int)a[1];
	pid_t id = (pid_t)a[nr == SYS_tgkill ? 1 : 0];
	if (sig != SIGKILL)
		return;
	if (nr == SYS_pidfd_send_signal) {
		/* The process the pidfd names, as rec sees it (its fdinfo
		 * read from here says the id in rec's pid namespace). */
		id = pt_fdinfo(cur->p.pid, a[0], "Pid:", 10);
		struct task *t = id > 0 ? find_task(id) : NULL;
		if (t && t->tgid == id)
			process_robust_marks(id, w);
		return;
	}
	struct task *t = id > 0 ? find_task(id) : NULL;
	/* kill names a process; ids the program sees in a pid namespace
	 * are not rec's, and are left alone. */
	if (!t || (nr == SYS_kill && t->tgid != id) || self_id(id, id) != (uint32_t)id)
		return;
	process_robust_marks(t->tgid, w);
}
