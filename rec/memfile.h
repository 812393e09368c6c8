/* memfile.h: writes the program makes through /proc/PID/mem, which change
 * a process's memory as a syscall's output does. */
#ifndef REWIND_REC_MEMFILE_H
#define REWIND_REC_MEMFILE_H

#include <stdint.h>
#include <sys/types.h>

/* After write-family call nr (arguments a) of thread pid wrote ret > 0
 * bytes: if its descriptor is /proc/N/mem or /proc/N/task/M/mem, the
 * process N (as rec sees it; thread M for a task path), with *addr set
 * to where the bytes went; -1 when where cannot be told; else 0. */
long memfile_written(pid_t pid, long nr, const uint64_t a[6], int64_t ret, uint64_t *addr);

/* The process (or thread) whose /proc/N/mem thread pid has open as
 * descriptor fd, or 0. */
long memfile_target(pid_t pid, uint64_t fd);

/* After call nr of thread pid returned ret: notes a descriptor opened on
 * /proc/N/mem (open, openat, openat2, pidfd_getfd; the read-only opens
 * the syscall-buffering library makes cannot write). memfile_written()
 * looks at no write before the first. */
void memfile_opened(pid_t pid, long nr, int64_t ret);

#endif
