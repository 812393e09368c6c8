/* engint.h: what the engine's files share: engine.c (replaying events),
 * cursor.c (its place in the trace), inject.c (injected calls) and
 * engsnap.c (copies of a stopped replay); no other file includes it. */
#ifndef REWIND_ENGINT_H
#define REWIND_ENGINT_H

#include "engine.h"

/* The slot in e->tasks of live thread rtid, or -1. */
static inline int find_task(struct engine *e, uint32_t rtid)
{
	for (int i = 0; i < e->ntasks; i++)
		if (e->tasks[i].rtid == rtid && e->tasks[i].state != ET_GONE)
			return i;
	return -1;
}

/* The thread the engine runs now. */
static inline struct eng_task *cur_task(struct engine *e)
{
	return &e->tasks[e->ti];
}

/* The engine's fields of the current thread (its pt_proc, stop, pending
 * signal...) into its slot of e->tasks, and back. */
void eng_save_cur(struct engine *e);
void eng_load_cur(struct engine *e);

/* Kill and reap every thread and process of the replay still there. */
void eng_kill_all(struct engine *e);

/* cursor.c */

/* Make the next event e->cur (the one read ahead, when held). Dies at
 * the end of the stream. */
void eng_load_next(struct engine *e);
/* The event after e->cur, read ahead (e->ahead); at the end of the
 * stream NULL if soft, else dies. */
const struct trace_rec *eng_peek_next(struct engine *e, int soft);
/* Find the item of rec with tag and flags (-1: any) into *it. Returns 1,
 * or 0 when rec has none. */
int eng_find_item(const struct trace_rec *rec, int tag, int flags, struct trace_item *it);
/* Kill the tracee and die naming the corrupt record e->cur and what. */
void eng_bad_record(struct engine *e, const char *what) __attribute__((noreturn));
/* The path of the file that IT_FILE item it names, its bytes checked to
 * be the recorded ones (real: only the file at its recorded path will
 * do). Dies naming the file when none is. The result is static. */
const char *eng_blob_path(struct engine *e, const struct trace_item *it, int real);
/* The signal of the next event of thread tid, when that event is a
 * signal (other threads' events may come first), else 0. */
int eng_next_signal_of(struct engine *e, uint32_t tid);

/* inject.c */


#endif
