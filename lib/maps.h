/* maps.h: reads a process's mappings from /proc/PID/maps, one line at a
 * time, for every tool that needs them. */
#ifndef REWIND_MAPS_H
#define REWIND_MAPS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* One line of /proc/PID/maps. */
struct maps_line {
	uint64_t lo, hi;	/* [lo, hi) */
	uint64_t off;		/* offset in the file */
	uint64_t ino;		/* the file's inode, 0 for anonymous memory */
	uint64_t dev;		/* and its device (makedev), as stat gives it */
	char perm[8];		/* "rw-p": read, write, exec, s(hared) or p(rivate) */
	char name[4200];	/* the path, "[heap]", "[stack]"..., or "" */
	int deleted;		/* name had " (deleted)" after it, left out of name */
};

/* Opens /proc/PID/maps (NULL with errno set). Read it with maps_next,
 * then fclose it. */
FILE *maps_open(pid_t pid);

/* From here on maps_open(pid) gives the maps pid has at its next call
 * again, without reading them anew, until maps_drop: for a stretch of a
 * stop (rec's record_exec) in which nothing changes pid's mappings. A
 * call injected into a tracee (inject.c) drops them. */
void maps_keep(pid_t pid);
void maps_drop(void);

/* The next mapping of f into *m: 1, or 0 at the end. */
int maps_next(FILE *f, struct maps_line *m);

/* The mapping of process pid that holds addr into *m, its name left
 * empty: 1, 0 when none does, -1 when the maps cannot be read. Asked of
 * the kernel by PROCMAP_QUERY (Linux 6.11), else (or with
 * REWIND_NO_PROCMAP_QUERY=1) found by reading the maps line by line. */
int maps_at(pid_t pid, uint64_t addr, struct maps_line *m);

/* maps_at with the mapping's name in m->name as maps_next gives it
 * (a file's path, "[vdso]", "[stack]"...). */
int maps_at_named(pid_t pid, uint64_t addr, struct maps_line *m);

/* maps_at_named of the mapping that holds addr or, if none does, of the
 * first one above it: a walk over a range, a query a mapping. */
int maps_from(pid_t pid, uint64_t addr, struct maps_line *m);

#endif
