/* outs.c: which of the program's descriptors are rec's own stdout and
 * stderr (see outs.h). */
#include "outs.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/kcmp.h>

static struct stat out[3];
static int have_out[3];

void outs_init(void)
{
	for (int fd = 1; fd <= 2; fd++)
		have_out[fd] = fstat(fd, &out[fd]) == 0;
}

/* /dev/null, /dev/zero and the like: every open of one is the same
 * inode, so the inode does not tell the program's own opens from rec's
 * stdout or stderr. */
static int null_dev(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1;
}

/* Whether rec's fd mine and fd of pid are one open file description
 * (kcmp), as when the program inherited or dup'ed it. */
static int same_open_file(int mine, pid_t pid, uint64_t fd)
{
	static pid_t self;	/* a syscall each time since glibc 2.25 */
	if (!self)
		self = getpid();
	return syscall(SYS_kcmp, self, pid, KCMP_FILE, mine, fd) == 0;
}

int outs_kind(pid_t pid, uint64_t fd)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, (int)fd);
	if (fd > INT32_MAX)
		return 0;
	if (stat(path, &st) < 0)
		return errno == EACCES || errno == EPERM ? -errno : 0;
	return outs_kind_st(pid, fd, &st);
}

int outs_kind_st(pid_t pid, uint64_t fd, const struct stat *st)
{
	int k = 0;
	for (int s = 2; s >= 1; s--)
		if (have_out[s] && out[s].st_dev == st->st_dev && out[s].st_ino == st->st_ino &&
		    (!k || (int)fd == s) && (!null_dev(st) || same_open_file(s, pid, fd)))
			k = s;
	return k;
}
