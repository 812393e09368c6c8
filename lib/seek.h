/* seek.h: persistent checkpoints of a replay, kept in TRACE/seek/ by
 * tseek: an index, one file per checkpoint, and a shared store of
 * zstd-compressed pages named by content hash (man/rewind-trace.5). */
#ifndef REWIND_SEEK_H
#define REWIND_SEEK_H

#include <stdint.h>
#include "engine.h"

#define SEEK_VERSION 4
#define SEEK_INDEX_MAGIC "RWNDSIDX"
#define SEEK_CP_MAGIC "RWNDSCKP"
#define SEEK_PAGES_MAGIC "RWNDSPGS"
#define SEEK_DIR "seek"

/* One entry of the index. */
struct seek_entry {
	uint64_t event, size, hash;
};

/* A checkpoint store being written by tseek. */
struct seek_store;

/* Start a new store in DIR/seek.new (replacing a leftover one). Dies on
 * failure. */
struct seek_store *seek_create(const char *dir);
/* Remove DIR/seek.new, the store a tseek that failed or was stopped
 * leaves: for its exit paths (atexit, a signal's). */
void seek_abandon(const char *dir);
/* Save the state of e's tracee after e->cur as a checkpoint. Returns 0,
 * 1 when this is no place for one (a signal being delivered; the caller
 * tries again later) with *why saying what stopped it (a static phrase,
 * as eng_copy_blocker()'s), or dies on an I/O failure. The tracee is
 * left at a syscall-exit stop with its registers as they were. */
int seek_capture(struct seek_store *s, struct engine *e, const char **why);
/* Write the index and put the store in place of DIR/seek. Returns the
 * number of checkpoints; *bytes gets the size of the files. */
int seek_finish(struct seek_store *s, uint64_t *bytes);

/* Read and check DIR/seek/index. Returns the number of entries (malloc'd
 * in *ents), 0 when there is no index, or -1 with why set (one line,
 * naming the file) when it is damaged or belongs to another events file. */
int seek_index(const char *dir, struct seek_entry **ents, char *why, size_t len);

/* Make e, opened on dir and replayed to event 1 (the program started),
 * the replay at checkpoint ent. Returns 0, or -1 with why set; the
 * tracee is then in an unknown state and must be killed. */
int seek_apply(struct engine *e, const char *dir, const struct seek_entry *ent, char *why,
	       size_t len);

#endif
