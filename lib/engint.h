/* engint.h: what engine.c (the replay) and engsnap.c (copies of a stopped
 * replay) share; no other file includes it. */
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

#endif
