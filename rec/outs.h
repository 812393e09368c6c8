/* outs.h: which of the program's descriptors are rec's own stdout and
 * stderr, whose bytes replay prints again. */
#ifndef REWIND_REC_OUTS_H
#define REWIND_REC_OUTS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Note what rec's stdout and stderr are; call once, before the program
 * starts. */
void outs_init(void);

/* 1 or 2 when fd of process pid is rec's stdout or stderr (the same file;
 * for a device like /dev/null, the same open file), else 0; -EACCES or
 * -EPERM when rec may not look (a non-dumpable process, rec not root). */
int outs_kind(pid_t pid, uint64_t fd);

/* The same for a descriptor whose /proc link's stat is st already. */
int outs_kind_st(pid_t pid, uint64_t fd, const struct stat *st);

#endif
