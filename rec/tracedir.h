/* tracedir.h: the trace directory, and the file store (files/) that holds
 * the files the program executed and mapped. */
#ifndef REWIND_REC_TRACEDIR_H
#define REWIND_REC_TRACEDIR_H

#include "rec.h"

#include <sys/stat.h>

/* Make the trace directory: DIR from -o, else the next free NAME-N under
 * trace_home() with latest-trace pointing at it; r->dir names it, and
 * r->w writes its events file. */
void make_dir(struct recorder *r, const char *opt, const char *prog);

/* rec --keep-failed, called before make_dir(): when rec exits 0 (the
 * program exited 0 and was recorded to its end), the trace directory
 * r->dir is removed, and latest-trace, if make_dir() moved it (own_dir
 * 0: no -o) and no other rec moved it since, points where it pointed
 * before (or is removed when there was none). */
void keep_failed(struct recorder *r, int own_dir);

/* Put the file open at src (a /proc path that reaches it even if deleted)
 * into files/ as cheaply as the file allows, and add an IT_FILE item for
 * it. A file reachable by its path is hardlinked into files/, or, when
 * that fails (another filesystem, EPERM), recorded by path, size and
 * hash only: tpack copies those in later. A file the program can write
 * to, or that its path no longer reaches (deleted, replaced), is copied
 * now: its bytes will not be found again. r keeps the files stored.
 * known: stat(src) if the caller has it, else NULL. */
void store_file(struct recorder *r, const char *src, const struct stat *known, const char *path,
		int flags, uint64_t off, int writable);

/* Forget what the store knows of the file dev, ino: the next one stored
 * is hashed afresh (a file that changes, or a new file with its inode). */
void store_forget(struct recorder *r, dev_t dev, ino_t ino);

#endif
