/* timeline.c: a timeline's life: opening a replay (at the start or at a
 * tseek checkpoint), following another process, going to an event and
 * closing it. The moves themselves live in the files tlpriv.h lists. */
#include "tlpriv.h"
#include "pt.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tl_open(struct timeline *t, const char *dir, uint64_t ev)
{
	memset(t, 0, sizeof *t);
	/* Watching by page protection: the kernel could not write the answer
	 * of a call rec let through into a page made read-only, so each stops
	 * and the engine makes it with the pages open (watch.c). */
	if (watch_by_pages())
		pt_trace_all = 1;
	/* From a tseek checkpoint, history begins there. */
	uint64_t at = ev > 1 ? eng_open_at(&t->e, dir, ev) : (eng_open(&t->e, dir), 0);
	eng_set_opts(&t->e, &(struct eng_opts){ .debug = 1 });
	watch_init(&t->w, &t->e);
	if (!at && eng_resume(&t->e, 0) != ENG_EVENT)
		die(EXIT_TRACE, "%s: the program did not start", dir);
	t->here.ev = t->first = t->e.cur.event;
	t->pid = t->e.tasks[0].rtgid;
	/* Breakpoints and watchpoints inside preempted stretches stop,
	 * unless REWIND_NO_REEXEC=1 asks for the states to be set. */
	t->reexec = !env_flag("REWIND_NO_REEXEC");
	t->ran = t->e.tasks[t->e.ti].rtid;	/* from a checkpoint: its event's thread */
	t->seen = t->e.made;
	snprintf(t->exe, sizeof t->exe, "%s", t->e.exe);
	eng_ready(&t->e);
	t->pass[0] = t->pass[1] = 0;
	mark_add(t, 0);
}

int tl_follow(struct timeline *t, uint32_t pid)
{
	if (pid == t->pid)
		return 0;
	uint64_t at = eng_process_start(t->e.dir, pid);
	if (!at) {
		snprintf(t->msg, sizeof t->msg, "the trace has no process %u (tdump shows the ids)", pid);
		return -1;
	}
	t->pid = pid;
	struct tl_pos p = { .ev = at };
	if (tl_go_to(t, &p) < 0)
		return -1;
	struct eng_task *k = eng_task_of(&t->e, pid);
	if (!k || k->rtgid != pid) {
		snprintf(t->msg, sizeof t->msg, "%u is a thread, not a process", pid);
		return -1;
	}
	t->first = at;
	t->ran = pid;
	snprintf(t->exe, sizeof t->exe, "%s", k->exe);
	return 0;
}

void tl_close(struct timeline *t)
{
	tl_flush(t);
	while (t->nmarks)
		mark_drop(t, t->nmarks - 1);
	free(t->marks);
	for (int i = 0; i < t->capnhits; i++)
		tlpos_free(&t->hits[i]);
	free(t->hits);
	free(t->hitwhy);
	free(t->gaps);
	tlpos_free(&t->here);
	watch_free(&t->w);
	eng_close(&t->e);
}

int tl_goto_event(struct timeline *t, uint64_t ev)
{
	t->msg[0] = 0;
	struct tl_pos p = { .ev = ev < t->first ? t->first : ev };
	int k = tl_go_to(t, &p);
	t->nhits = 0;
	if (k < 0 && t->here.ev < p.ev && tl_at_end(t))
		return 1;	/* at the end, which t->msg names */
	return k;
}
