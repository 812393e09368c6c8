/* answer.c: calls rec answers at their entry with the error a kernel
 * without the feature gives (see answer.h). */
#include "answer.h"
#include "pt.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#define USERFAULTFD_IOC_NEW 0xaa00	/* _IO(0xAA, 0x00) */
#define MISC_MAJOR 10
#define ADV_COLLAPSE 25

/* Whether fd of pid is a misc character device (/dev/userfaultfd is). */
static int misc_dev(pid_t pid, uint64_t fd)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, (int)fd);
	return fd <= INT32_MAX && stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == MISC_MAJOR;
}

long answer_entry(pid_t pid, pid_t tgid, long nr, const uint64_t a[6])
{
	if (nr == SYS_ioctl && (uint32_t)a[1] == USERFAULTFD_IOC_NEW && misc_dev(pid, a[0]))
		return -ENOSYS;
	if (nr == SYS_process_madvise && a[4] == 0) {
		int adv = (int)a[3];
		/* The advice another process's memory may get: hints that
		 * change no byte of it. */
		if (adv == MADV_COLD || adv == MADV_PAGEOUT || adv == MADV_WILLNEED ||
		    adv == ADV_COLLAPSE)
			return 0;
		if (pt_fdinfo(pid, a[0], "Pid:", 10) == tgid)
			return -EINVAL;
	}
	return 0;
}
