/* memfile.c: which writes went into a process's memory through
 * /proc/PID/mem (see memfile.h). */
#include "memfile.h"
#include "pt.h"

#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Set once the program opened a /proc/PID/mem for writing: until then
 * no write is looked at (each look costs a stat). */
static int seen;

/* The process (or thread, for a task path) whose memory the file at
 * path (a /proc/PID/fd link) is, or 0. */
static long mem_target(const char *path)
{
	char link[128];
	ssize_t n = readlink(path, link, sizeof link - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	long target = 0, task = 0;
	int end = 0;
	if (sscanf(link, "/proc/%ld/mem%n", &target, &end) == 1 && end == n)
		return target;
	if (sscanf(link, "/proc/%ld/task/%ld/mem%n", &target, &task, &end) == 2 && end == n)
		return task;
	return 0;
}

long memfile_target(pid_t pid, uint64_t fd)
{
	char path[64];
	if (!seen || fd > INT32_MAX)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, (int)fd);
	return mem_target(path);
}

void memfile_opened(pid_t pid, long nr, int64_t ret)
{
	char path[64];
	if (seen || ret < 0 || ret > INT32_MAX ||
	    (nr != SYS_open && nr != SYS_openat && nr != SYS_openat2 && nr != SYS_pidfd_getfd))
		return;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, (int)ret);
	seen = mem_target(path) != 0;
}

long memfile_written(pid_t pid, long nr, const uint64_t a[6], int64_t ret, uint64_t *addr)
{
	char path[64];
	struct stat st;
	if (!seen || ret <= 0 || a[0] > INT32_MAX)
		return 0;
	if (nr != SYS_write && nr != SYS_writev && nr != SYS_pwrite64 && nr != SYS_pwritev &&
	    nr != SYS_pwritev2)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, (int)a[0]);
	/* A file that took bytes and still has size 0 is a kernel's file
	 * (procfs): only then is the name worth a look. */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size != 0)
		return 0;
	long target = mem_target(path);
	if (!target)
		return 0;
	int64_t pos = (nr == SYS_write || nr == SYS_writev ||
		       (nr == SYS_pwritev2 && (int64_t)a[3] == -1)) ? pt_fdinfo(pid, a[0], "pos:", 10) - ret :
		      (int64_t)a[3];
	if (pos < 0)
		return -1;
	*addr = (uint64_t)pos;
	return target;
}
