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

/* engtask.c */

#define PS_INTR 100	/* the SIGSTOP we sent to interrupt the tracee */

/* The pointer arguments of the call at event ev that point elsewhere
 * than in the trace (sys_enter): an IT_MEM item at a recorded pointer
 * (the output cap_outputs saved there) goes to the replayed one. */
struct eng_moved {
	uint64_t ev;
	int n;
	uint64_t from[6], to[6];
};
extern struct eng_moved eng_moved;

/* Stop the replay: kill every thread and die, saying at which event and
 * how the replay parted from the recording (fmt: what was expected and
 * what came). */
void eng_diverge(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* The name of syscall nr (syscall_NR when the table lacks it). The
 * result may be static. */
const char *eng_sysname(long nr);
/* Make slot i of e->tasks the current thread, saving the one before. */
void eng_switch_task(struct engine *e, int i);
/* A new slot in e->tasks for thread rtid of process rtgid (recorded
 * ids), replayed by pid; returns its index. */
int eng_add_task(struct engine *e, uint32_t rtid, uint32_t rtgid, pid_t pid);
/* Wait for the next stop that matters, passing over signals sent from
 * outside the replay (a Ctrl-C aimed at the terminal's process group):
 * those happened in some other run, not in the recorded one. */
int eng_wait_stop(struct engine *e, int *st);
/* Stop k with wait status st (from eng_wait_stop) as words for a
 * message. The result is static. */
const char *eng_describe_stop(struct engine *e, int k, int st);
/* Check that the stop the tracee came to is the one the event expects. */
void eng_expect(struct engine *e, int k, int want, const char *expected);
/* The current thread set its alternate signal stack from the stack_t at
 * ss: note it for checkpoints (no call reads it back without changing
 * the thread). */
void eng_note_altstack(struct engine *e, uint64_t ss);
/* Write the record's IT_MEM items into the tracee, and its IT_FPATCH
 * items into the emulated files. */
void eng_apply_mem(struct engine *e, const struct trace_rec *rec);

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
