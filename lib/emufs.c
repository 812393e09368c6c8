/* emufs.c: replay's emulated copies of files mapped shared: memfds made
 * from the trace's bytes, patched as the recorded writes say, and saved
 * and put back for checkpoints (see emufs.h). */
#include "emufs.h"
#include "trace.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int emufs_find(const struct emufs *fs, uint64_t dev, uint64_t ino)
{
	for (int i = 0; i < fs->n; i++)
		if (fs->f[i].dev == dev && fs->f[i].ino == ino)
			return i;
	return -1;
}

int emufs_holds(const struct emufs *fs, int i, uint64_t size, uint64_t hash)
{
	char path[64];
	uint64_t h, n;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fs->f[i].fd);
	return hash_file(path, &h, &n) == 0 && n == size && h == hash;
}

/* Copy n bytes from fd in to fd out, both from offset 0, out's holes
 * made already: only in's data is read (a sparse file of 64 GiB, a memfd
 * of terabytes). */
static int copy_bytes(int in, int out, uint64_t n)
{
	static uint8_t buf[1 << 16];
	for (uint64_t done = 0; done < n;) {
		off_t data = lseek(in, done, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break;	/* holes to the end */
		if (data > (off_t)done) {
			done = data;
			continue;
		}
		size_t want = n - done < sizeof buf ? n - done : sizeof buf;
		ssize_t k = pread(in, buf, want, done);
		if (k <= 0) {
			if (k == 0)
				errno = EIO;	/* shorter than recorded */
			return -1;
		}
		if (pwrite(out, buf, k, done) != k)
			return -1;
		done += k;
	}
	return 0;
}

int emufs_new(struct emufs *fs, uint64_t dev, uint64_t ino)
{
	int fd = memfd_create("rewind-file", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	fs->f = xrealloc(fs->f, (fs->n + 1) * sizeof *fs->f);
	fs->f[fs->n] = (struct emufile){ dev, ino, fd };
	return fs->n++;
}

int emufs_load(struct emufs *fs, int i, uint64_t dev, uint64_t ino, const char *path, uint64_t size)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	if (i < 0) {
		int fd = memfd_create("rewind-file", MFD_CLOEXEC);
		if (fd < 0) {
			close(in);
			return -1;
		}
		fs->f = xrealloc(fs->f, (fs->n + 1) * sizeof *fs->f);
		i = fs->n++;
		fs->f[i] = (struct emufile){ dev, ino, fd };
	}
	/* Truncating first drops the old bytes: the copy is the file as
	 * recorded now, holes where it had zeros. */
	int rc = ftruncate(fs->f[i].fd, 0) < 0 || ftruncate(fs->f[i].fd, size) < 0 ||
			 copy_bytes(in, fs->f[i].fd, size) < 0
		 ? -1
		 : i;
	int e = errno;
	close(in);
	errno = e;
	return rc;
}

int emufs_patch(struct emufs *fs, const uint8_t *p, size_t len)
{
	if (len < 32) {
		errno = EINVAL;
		return -1;
	}
	int i = emufs_find(fs, get64(p), get64(p + 8));
	if (i < 0)
		return 0;
	uint64_t size = get64(p + 16), off = get64(p + 24);
	int fd = fs->f[i].fd;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	/* Shrink first, so bytes past the new end are gone; grow last, so
	 * a patch that reaches the end leaves its bytes there. */
	if (size < (uint64_t)st.st_size && ftruncate(fd, size) < 0)
		return -1;
	if (len > 32 && pwrite(fd, p + 32, len - 32, off) != (ssize_t)(len - 32))
		return -1;
	return ftruncate(fd, size);
}

/* The bytes of a copy are read and written through a mapping: past the
 * end of the file, its last page holds what stores through a mapping put
 * there, which read(2) does not show and the program may. */
#define PAGE_UP(n) (((n) + 4095) & ~(uint64_t)4095)

int emufs_save(const struct emufs *fs, struct emufs_saved *s, uint64_t max)
{
	memset(s, 0, sizeof *s);
	s->size = xmalloc((fs->n + 1) * sizeof *s->size);
	s->data = xmalloc((fs->n + 1) * sizeof *s->data);
	uint64_t total = 0;
	for (int i = 0; i < fs->n; i++) {
		struct stat st;
		s->n = i;
		if (fstat(fs->f[i].fd, &st) < 0 || (total += PAGE_UP(st.st_size)) > max)
			goto fail;
		uint64_t len = PAGE_UP(st.st_size);
		void *m = len ? mmap(NULL, len, PROT_READ, MAP_SHARED, fs->f[i].fd, 0) : NULL;
		if (m == MAP_FAILED)
			goto fail;
		s->size[i] = st.st_size;
		s->data[i] = xmalloc(len + 1);
		s->n = i + 1;
		memcpy(s->data[i], m, len);
		if (len)
			munmap(m, len);
	}
	s->n = fs->n;
	return 0;
fail:
	emufs_saved_free(s);
	return -1;
}

int emufs_restore(struct emufs *fs, const struct emufs_saved *s)
{
	while (fs->n > s->n)
		close(fs->f[--fs->n].fd);
	for (int i = 0; i < s->n; i++) {
		uint64_t len = PAGE_UP(s->size[i]);
		if (ftruncate(fs->f[i].fd, 0) < 0 || ftruncate(fs->f[i].fd, s->size[i]) < 0)
			return -1;
		if (!len)
			continue;
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fs->f[i].fd, 0);
		if (m == MAP_FAILED)
			return -1;
		memcpy(m, s->data[i], len);
		munmap(m, len);
	}
	return 0;
}

void emufs_saved_free(struct emufs_saved *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->data[i]);
	free(s->size);
	free(s->data);
	memset(s, 0, sizeof *s);
}

void emufs_close(struct emufs *fs)
{
	for (int i = 0; i < fs->n; i++)
		close(fs->f[i].fd);
	free(fs->f);
	fs->f = NULL;
	fs->n = 0;
}
