/* bufplay.h: the engine's side of syscall buffering at replay: a run of
 * buffered calls is answered inside the process, with no stop each. */
#ifndef REWIND_BUFPLAY_H
#define REWIND_BUFPLAY_H

#include "engine.h"

/* Before the current thread resumes: when the event read ahead starts a
 * run of that thread's buffered calls (before e->limit, with e->batch
 * set) and its process has the library's buffer, put the run there.
 * Returns how many calls were put (0: none, nothing changed). */
int bufplay_load(struct engine *e);

/* Before the current thread resumes, after bufplay_load (or without it:
 * a step, a debugger's run): whether the first of its calls the buffer
 * will not answer is one the library logged under rec, told to the
 * library (raw_next, bufabi.h), which then makes it without libc's
 * wrapper, as rec did: a counted replay runs the same code. */
void bufplay_raw(struct engine *e);

/* After the thread stopped: the calls it answered from the buffer count
 * as replayed; the reader is back at the first it did not, which the
 * engine then replays (or finds divergent) the usual way. */
void bufplay_sync(struct engine *e);

#endif
