/* emu.c: rec's side of the files replay emulates: which files are
 * mapped shared (or past their end), and the changes the program's calls
 * and outside processes make to them, as IT_FPATCH items (see emu.h). */
#include "emu.h"
#include "maps.h"
#include "sys.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static struct emu {
	dev_t dev;
	ino_t ino;
	int fd;		/* rec's own descriptor of it, to read it back */
	int wd;		/* its inotify watch */
	int warned;	/* an outside change was reported */
	char path[256];	/* as the program opened it, for messages */
} *emu;
static int nemu, ino_fd = -1;
/* ino_fd signals SIGIO to rec's main thread when a report comes, so
 * that a stop with none waiting costs no read (ino_async: set up). */
static volatile sig_atomic_t ino_ready;
static int ino_async;

static void on_io(int sig)
{
	(void)sig;
	ino_ready = 1;
}

static struct emu *find(dev_t dev, ino_t ino)
{
	for (int i = 0; i < nemu; i++)
		if (emu[i].dev == dev && emu[i].ino == ino)
			return &emu[i];
	return NULL;
}

int emu_is(dev_t dev, ino_t ino)
{
	return find(dev, ino) != NULL;
}

void emu_forget_unmapped(const pid_t *pids, int n)
{
	struct maps_line m;
	for (int i = 0; i < nemu; i++) {
		int mapped = 0;
		for (int k = 0; k < n && !mapped; k++) {
			FILE *f = maps_open(pids[k]);
			while (f && !mapped && maps_next(f, &m))
				mapped = m.ino == emu[i].ino && m.dev == emu[i].dev;
			if (f)
				fclose(f);
		}
		if (mapped)
			continue;
		if (emu[i].wd >= 0)
			inotify_rm_watch(ino_fd, emu[i].wd);
		if (emu[i].fd >= 0)
			close(emu[i].fd);
		emu[i--] = emu[--nemu];
	}
}

int emu_map(struct pt_proc *p, const uint64_t a[6], const struct stat *st, int writable)
{
	uint64_t end = ((uint64_t)st->st_size + 4095) & ~4095ull;
	if (find(st->st_dev, st->st_ino))
		return 1;
	/* A private mapping shows changes to the file in the pages it has
	 * not copied yet: through a descriptor open for writing, the
	 * program may make some. Past the end, the file may grow under it,
	 * and a touch there raises SIGBUS. The dynamic loader maps
	 * libraries past their end too (with MAP_DENYWRITE, and the space
	 * after their end mapped over): those stay private copies. */
	if ((a[3] & MAP_SHARED_VALIDATE) == MAP_PRIVATE && !writable &&
	    !(a[5] + a[1] > end && !(a[3] & MAP_DENYWRITE)))
		return 0;
	char src[64];
	snprintf(src, sizeof src, "/proc/%d/fd/%d", p->pid, (int)a[4]);
	emu = xrealloc(emu, (nemu + 1) * sizeof *emu);
	struct emu *e = &emu[nemu++];
	memset(e, 0, sizeof *e);
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->fd = open(src, O_RDONLY | O_CLOEXEC);
	ssize_t n = readlink(src, e->path, sizeof e->path - 1);
	e->path[n > 0 ? n : 0] = 0;
	/* The kernel tells of write(2)-like changes by any process (not
	 * of stores through mappings): those of outside processes are
	 * what no recorded call explains. */
	if (ino_fd < 0) {
		ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		struct sigaction sa = { .sa_handler = on_io, .sa_flags = SA_RESTART };
		struct f_owner_ex own = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
		ino_async = ino_fd >= 0 && sigaction(SIGIO, &sa, NULL) == 0 &&
			    fcntl(ino_fd, F_SETOWN_EX, &own) == 0 &&
			    fcntl(ino_fd, F_SETFL, O_NONBLOCK | O_ASYNC) == 0;
	}
	snprintf(src, sizeof src, "/proc/self/fd/%d", e->fd);
	e->wd = ino_fd >= 0 && e->fd >= 0 ? inotify_add_watch(ino_fd, src, IN_MODIFY) : -1;
	return 1;
}

/* The file offset of process p's fd now (-1 if unknown), and whether it
 * was opened O_APPEND. */
static int64_t fd_pos(struct pt_proc *p, int fd, int *append)
{
	char path[64], line[128];
	long long pos = -1;
	unsigned flags = 0;
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", p->pid, fd);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "pos: %lld", &pos) != 1)
			sscanf(line, "flags: %o", &flags);
	if (f)
		fclose(f);
	*append = (flags & O_APPEND) != 0;
	return pos;
}

/* Patches bigger than this (a whole file rewritten by copy_file_range,
 * say) stop the recording instead of filling the trace. */
#define PATCH_MAX (64u << 20)

/* Add an IT_FPATCH of file e: its size now, and len bytes at off. */
static int put_patch(struct trace_writer *w, struct emu *e, uint64_t size, int64_t off, int64_t len,
		     const char *what, char *why, size_t whylen)
{
	if (len < 0 || off < 0 || (uint64_t)len > PATCH_MAX) {
		snprintf(why, whylen, "the program changed %s (mapped shared) with %s in a way rewind "
			 "cannot record yet", e->path, what);
		return -1;
	}
	uint8_t *buf = xmalloc(len + 1);
	ssize_t got = e->fd < 0 ? -1 : pread(e->fd, buf, len, off);
	if (got < 0) {
		snprintf(why, whylen, "cannot read back %s, which the program maps shared and changed with %s: %s",
			 e->path, what, strerror(e->fd < 0 ? EBADF : errno));
		free(buf);
		return -1;
	}
	uint64_t hdr[4] = { e->dev, e->ino, size, off };
	tw_item(w, IT_FPATCH, 0, hdr, sizeof hdr, buf, got);
	free(buf);
	return 0;
}

/* Drop the change reports waiting: they are the recorded call's own. */
static void drain(void)
{
	char buf[4096];
	while (ino_fd >= 0 && read(ino_fd, buf, sizeof buf) > 0)
		;
}

int emu_changes(long nr)
{
	switch (nr) {
	case SYS_write: case SYS_writev: case SYS_pwrite64: case SYS_pwritev: case SYS_pwritev2:
	case SYS_ftruncate: case SYS_truncate: case SYS_fallocate: case SYS_copy_file_range:
	case SYS_splice: case SYS_sendfile: case SYS_open: case SYS_openat: case SYS_creat:
	case SYS_openat2: case SYS_madvise:
		return 1;
	}
	return 0;
}

int emu_patch(struct trace_writer *w, struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret,
	      char *why, size_t whylen)
{
	if (!nemu || ret < 0 || !emu_changes(nr))
		return 0;
	if (nr == SYS_madvise) {	/* MADV_REMOVE: replay's copy is changed alike */
		drain();
		return 0;
	}
	int fd = a[0], whole = 0, range = 0;
	int64_t off = -1, len = ret;
	switch (nr) {
	case SYS_pwrite64:
	case SYS_pwritev:
	case SYS_pwritev2:
		off = nr == SYS_pwritev2 && (int64_t)a[3] == -1 ? -1 : (int64_t)a[3];
		break;
	case SYS_ftruncate:
	case SYS_truncate:
		fd = nr == SYS_ftruncate ? (int)a[0] : -2;
		len = 0;
		break;
	case SYS_fallocate: {	/* only a hole punched or zeroed changes bytes */
		uint64_t mode = a[1] & ~(uint64_t)FALLOC_FL_KEEP_SIZE;
		range = mode == FALLOC_FL_PUNCH_HOLE || mode == FALLOC_FL_ZERO_RANGE;
		whole = mode && !range;	/* collapsed, inserted: bytes move */
		off = range ? (int64_t)a[2] : -1;
		len = range ? (int64_t)a[3] : 0;
		break;
	}
	case SYS_copy_file_range:
	case SYS_splice:
	case SYS_sendfile:
		fd = nr == SYS_sendfile ? a[0] : a[2];
		whole = 1;
		break;
	case SYS_open:
	case SYS_openat:
	case SYS_creat:
	case SYS_openat2: {	/* truncated as it opened */
		uint64_t fl = nr == SYS_open ? a[1] : nr == SYS_openat ? a[2] : O_TRUNC;
		if (nr == SYS_openat2 && pt_read(p, a[2], &fl, 8) != 8)
			fl = O_TRUNC;
		if (!(fl & O_TRUNC))
			return 0;
		fd = ret;
		len = 0;
		break;
	}
	}
	char src[4200];
	if (fd == -2) {	/* truncate(path): the path as the program meant it */
		char path[4096];
		if (pt_read_str(p, a[0], path, sizeof path) <= 0)
			return 0;
		if (path[0] == '/')
			snprintf(src, sizeof src, "%s", path);
		else
			snprintf(src, sizeof src, "/proc/%d/cwd/%s", p->pid, path);
	} else {
		snprintf(src, sizeof src, "/proc/%d/fd/%d", p->pid, fd);
	}
	struct stat st;
	struct emu *e;
	if (stat(src, &st) < 0 || !(e = find(st.st_dev, st.st_ino)))
		return 0;
	drain();
	if (whole) {
		off = 0;
		len = st.st_size;
	} else if (range) {	/* the range within the file, zeros now */
		if (off > st.st_size)
			off = st.st_size;
		if (len > st.st_size - off)
			len = st.st_size - off;
	} else if (len == 0) {
		off = 0;	/* the size alone changed */
	} else {
		/* write(2) leaves the offset after its bytes; an appending
		 * one, and pwrite(2) on an O_APPEND descriptor, wrote them
		 * at the end. */
		int append;
		int64_t pos = fd_pos(p, fd, &append);
		if (append || (nr == SYS_pwritev2 && (a[4] & RWF_APPEND)))
			off = st.st_size - len;
		else if (off < 0)
			off = pos - len;
	}
	return put_patch(w, e, st.st_size, off, len, sys_lookup(nr)->name, why, whylen);
}

int emu_outside(struct trace_writer *w, int busy, char *why, size_t whylen)
{
	if (ino_fd < 0 || busy || (ino_async && !ino_ready))
		return 0;
	ino_ready = 0;	/* before the read: a report after it signals again */
	union {
		struct inotify_event ev;
		char buf[4096];
	} u;
	int rc = 0;
	ssize_t n;
	while ((n = read(ino_fd, u.buf, sizeof u.buf)) > 0)
		for (char *q = u.buf; q < u.buf + n; q += sizeof(struct inotify_event) + ((struct inotify_event *)q)->len) {
			int wd = ((struct inotify_event *)q)->mask & IN_MODIFY ? ((struct inotify_event *)q)->wd : -1;
			for (int i = 0; i < nemu; i++) {
				struct stat st;
				if (emu[i].wd != wd || fstat(emu[i].fd, &st) < 0)
					continue;
				if (put_patch(w, &emu[i], st.st_size, 0, st.st_size, "an outside process", why,
					      whylen) < 0)
					return -1;
				if (!emu[i].warned && !rc) {
					snprintf(why, whylen, "%s, mapped shared, was changed by a process outside "
						 "the recording: replay shows the change from here on", emu[i].path);
					emu[i].warned = rc = 1;
				}
			}
		}
	return rc;
}
