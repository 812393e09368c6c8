/* rwdir.c: directory streams (opendir, readdir...) for librewind-buf.so.
 * libc's make their opens, fstats, fcntls, getdents64 and closes inside
 * libc, each a stop under rec; these make them through the public names,
 * which rwbuf.c's wrappers define. A DIR is this file's own struct, so
 * every function that takes one is here. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define API __attribute__((visibility("default")))

/* As glibc 2.36's: a buffer of 32 KiB for getdents64 (st_blksize is
 * smaller on every local file system), the position of the entry last
 * returned, and the error readdir_r reports. */
struct __dirstream {
	int fd;
	int errcode;
	pthread_mutex_t lock;
	size_t size, offset;
	off_t filepos;
	char data[32768] __attribute__((aligned(8)));
};

static DIR *alloc_dir(int fd, int close_fd)
{
	DIR *d = malloc(sizeof *d);
	if (!d) {
		if (close_fd) {
			int e = errno;
			close(fd);
			errno = e;
		}
		return NULL;
	}
	d->fd = fd;
	d->errcode = 0;
	pthread_mutex_init(&d->lock, NULL);
	d->size = d->offset = 0;
	d->filepos = 0;
	return d;
}

API DIR *opendir(const char *name)
{
	if (!name[0]) {
		errno = ENOENT;
		return NULL;
	}
	int fd = openat(AT_FDCWD, name, O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	return alloc_dir(fd, 1);
}

API DIR *fdopendir(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl == -1)
		return NULL;
	if ((fl & O_ACCMODE) == O_WRONLY) {
		errno = EINVAL;
		return NULL;
	}
	/* The caller's descriptor closes at exec from now on, as in libc. */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return NULL;
	return alloc_dir(fd, 0);
}

/* The next entry, or NULL at the end (errno as it was) or on an error. */
static struct dirent *next_entry(DIR *d)
{
	struct dirent *dp;
	int saved = errno;
	do {
		if (d->offset >= d->size) {
			ssize_t n = getdents64(d->fd, d->data, sizeof d->data);
			if (n <= 0) {
				/* ENOENT: a directory deleted while read is at
				 * its end, as POSIX has it. */
				if (n == 0 || errno == ENOENT)
					errno = saved;
				else
					d->errcode = errno;
				return NULL;
			}
			d->size = n;
			d->offset = 0;
		}
		dp = (struct dirent *)&d->data[d->offset];
		d->offset += dp->d_reclen;
		d->filepos = dp->d_off;
	} while (dp->d_ino == 0);
	return dp;
}

API struct dirent *readdir(DIR *d)
{
	pthread_mutex_lock(&d->lock);
	struct dirent *dp = next_entry(d);
	pthread_mutex_unlock(&d->lock);
	return dp;
}

API int readdir_r(DIR *d, struct dirent *entry, struct dirent **result)
{
	pthread_mutex_lock(&d->lock);
	struct dirent *dp = next_entry(d);
	int ret = 0;
	if (dp) {
		size_t n = dp->d_reclen < sizeof *entry ? dp->d_reclen : sizeof *entry;
		memcpy(entry, dp, n);
		entry->d_reclen = n;
		*result = entry;
	} else {
		*result = NULL;
		ret = d->errcode;
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

API void rewinddir(DIR *d)
{
	pthread_mutex_lock(&d->lock);
	lseek(d->fd, 0, SEEK_SET);
	d->filepos = 0;
	d->offset = d->size = 0;
	d->errcode = 0;
	pthread_mutex_unlock(&d->lock);
}

API void seekdir(DIR *d, long pos)
{
	pthread_mutex_lock(&d->lock);
	lseek(d->fd, pos, SEEK_SET);
	d->filepos = pos;
	d->offset = d->size = 0;
	pthread_mutex_unlock(&d->lock);
}

API long telldir(DIR *d)
{
	pthread_mutex_lock(&d->lock);
	long pos = d->filepos;
	pthread_mutex_unlock(&d->lock);
	return pos;
}

API int dirfd(DIR *d)
{
	return d->fd;
}

/* glibc's closedir says EINVAL for NULL, which its header rules out. */
#pragma GCC diagnostic ignored "-Wnonnull-compare"
API int closedir(DIR *d)
{
	if (!d) {
		errno = EINVAL;
		return -1;
	}
	int fd = d->fd;
	pthread_mutex_destroy(&d->lock);
	free(d);
	return close(fd);
}

/* The 64-bit names: the same structs on x86-64. */
__asm__(".globl readdir64\n.set readdir64, readdir\n"
	".globl readdir64_r\n.set readdir64_r, readdir_r\n");
