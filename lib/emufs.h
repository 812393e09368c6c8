/* emufs.h: replay's emulated copies of the files the program maps shared
 * (or past their end): one memfd per recorded file, which every replayed
 * mapping of that file maps, kept in step with the program's writes. */
#ifndef REWIND_EMUFS_H
#define REWIND_EMUFS_H

#include <stddef.h>
#include <stdint.h>

struct emufs {
	struct emufile {
		uint64_t dev, ino;	/* the file's identity when recorded */
		int fd;			/* the memfd, in the replaying process */
	} *f;
	int n;
};

/* The copy of the recorded file dev:ino, or -1 if there is none yet. */
int emufs_find(const struct emufs *fs, uint64_t dev, uint64_t ino);

/* Whether copy i holds size bytes that hash to hash. */
int emufs_holds(const struct emufs *fs, int i, uint64_t size, uint64_t hash);

/* Make copy i (or a new one, i < 0) of dev:ino hold the size bytes of
 * the file at path. Returns its index, or -1 with errno set. */
int emufs_load(struct emufs *fs, int i, uint64_t dev, uint64_t ino, const char *path, uint64_t size);

/* A new, empty copy of dev:ino (tseek's checkpoints fill it). Returns
 * its index, or -1 with errno set. */
int emufs_new(struct emufs *fs, uint64_t dev, uint64_t ino);

/* Apply an IT_FPATCH item (see trace.h) to its copy, if there is one.
 * Returns 0, or -1 with errno set (a short item: EINVAL). */
int emufs_patch(struct emufs *fs, const uint8_t *p, size_t len);

/* The contents of every copy, to put back with emufs_restore(). */
struct emufs_saved {
	int n;
	uint64_t *size;
	uint8_t **data;
};
/* Save fs into *s; -1 (nothing saved) when the copies hold more than
 * max bytes together or cannot be read. */
int emufs_save(const struct emufs *fs, struct emufs_saved *s, uint64_t max);
/* Make fs as it was at emufs_save(): copies made since are dropped (no
 * live mapping can hold them once the replay is a fork of the saved
 * one), the others get their saved bytes back. Returns 0 or -1. */
int emufs_restore(struct emufs *fs, const struct emufs_saved *s);
void emufs_saved_free(struct emufs_saved *s);

/* Close every copy. */
void emufs_close(struct emufs *fs);

#endif
