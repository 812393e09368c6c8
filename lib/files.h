/* files.h: the files a trace depends on (its IT_FILE items): where the
 * recorded bytes are and whether a file still holds them. Shared by the
 * replay engine and tpack. */
#ifndef REWIND_FILES_H
#define REWIND_FILES_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

struct files_ref {
	int flags;		/* IF_* */
	uint64_t size, hash, off;
	int64_t mtime;		/* ns since the epoch */
	char path[4096];	/* as recorded */
};

/* Decode an IT_FILE item. Returns 0, or -1 if it is too short or its
 * path too long. */
int files_ref(const struct trace_item *it, struct files_ref *f);

/* DIR/files/HASH, the trace's own copy of a file, into buf. */
void files_blob(char *buf, size_t len, const char *dir, uint64_t hash);

/* Whether the file at path holds f's recorded bytes: the size decides
 * fast, the content hash decides. Returns 0 if it does, 1 if not with
 * *why set ("size differs", "hash differs"), -1 if it cannot be read
 * (errno set). */
int files_same(const char *path, const struct files_ref *f, const char **why);

/* Copy the file at src to dst (created, mode 0500, synced) while hashing
 * what is copied. Returns 0 when the bytes copied are f's, 1 when they
 * are not (dst is removed, *why set), -1 on an error (errno set, dst
 * removed). */
int files_copy(const char *src, const char *dst, const struct files_ref *f, const char **why);

#endif
