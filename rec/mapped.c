/* mapped.c: memory a call maps or refills from a file (mmap of a file,
 * SysV shared memory, madvise and mremap), saved for replay. */
#include "bufdrain.h"
#include "emu.h"
#include "events.h"
#include "mapped.h"
#include "maps.h"
#include "rec.h"
#include "sys.h"
#include "task.h"
#include "tracedir.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Whether the program has the descriptor at src (/proc/PID/fd/N) open for
 * writing: then it may change the file behind a hard link, which must not
 * change the trace. procfs gives the link the owner's write bit exactly
 * then (one lstat, where fdinfo's flags cost four calls). */
static int fd_writable(const char *src)
{
	struct stat l;
	return lstat(src, &l) < 0 || (l.st_mode & S_IWUSR);
}

/* madvise(MADV_DONTNEED) and a growing mremap refill private file
 * mappings from the file. Replay's copies of those mappings are
 * anonymous, so save what the pages hold now as kernel output. With
 * anon, the private anonymous ones too: a madvise that failed (a hole
 * in the range, ENOMEM, or a locked page, EINVAL) emptied some of its
 * pages, which replay, answering it, writes instead. */
void file_pages(uint64_t lo, uint64_t hi, int anon)
{
	static struct maps_line m;
	/* The mappings in the range, each asked of the kernel (a thread's
	 * end frees its stack so: a read of the whole maps each cost 29 us
	 * here). */
	for (uint64_t at = lo; at < hi && maps_from(cur->p.pid, at, &m) > 0 && m.lo < hi; at = m.hi) {
		/* Anonymous: the program's own memory, not [vdso] and the like. */
		int want = m.ino || (anon && m.perm[0] == 'r' &&
				     (!m.name[0] || !strcmp(m.name, "[heap]") || !strcmp(m.name, "[stack]")));
		if (want && m.perm[3] == 'p')
			save_mem(m.lo > lo ? m.lo : lo, m.hi < hi ? m.hi : hi);
	}
}

/* cur attached a SysV shared memory segment at addr (shmat): replay
 * emulates it as it does a file mapped shared (one copy, which every
 * attachment in any process maps). Its bytes now go in as the file's,
 * read from the mapping; the segment's own dev and inode name it. */
void shm_attached(uint64_t addr, int writable)
{
	char path[64], line[4500], name[64] = "SYSV";
	unsigned long lo = 0, hi = 0, ino = 0;
	unsigned maj = 0, mnr = 0;
	int found = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", cur->p.pid);
	FILE *f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof line, f))
		found = sscanf(line, "%lx-%lx %*s %*s %x:%x %lu %63s", &lo, &hi, &maj, &mnr, &ino,
			       name) == 6 && lo == addr;
	if (f)
		fclose(f);
	if (!found)
		stop_recording(EXIT_TRACE, "the program attached SysV shared memory at 0x%llx, which "
			       "its maps do not show; the trace %s ends before it",
			       (unsigned long long)addr, R.dir);
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/files/.shm", R.dir);
	int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	static uint8_t buf[1 << 16], zero[1 << 16];
	int ok = fd >= 0 && ftruncate(fd, hi - lo) == 0;
	for (uint64_t at = lo; ok && at < hi; at += sizeof buf) {
		size_t n = hi - at < sizeof buf ? hi - at : sizeof buf;
		ok = pt_read(&cur->p, at, buf, n) == (ssize_t)n &&
		     (!memcmp(buf, zero, n) || pwrite(fd, buf, n, at - lo) == (ssize_t)n);
	}
	if (!ok)
		stop_recording(EXIT_TRACE, "cannot read the SysV shared memory the program attached at "
			       "0x%llx: %s; the trace %s ends before it", (unsigned long long)addr,
			       strerror(errno), R.dir);
	struct stat st;
	fstat(fd, &st);
	close(fd);
	store_file(&R, tmp, NULL, name, IF_MAP, 0, 1);
	unlink(tmp);
	/* The next temporary file may get its inode: not the same file. */
	store_forget(&R, st.st_dev, st.st_ino);
	uint64_t id[3] = { makedev(maj, mnr), ino, writable };
	tw_item(&R.w, IT_EMUFILE, 0, id, 20, NULL, 0);
}

/* Whether t is a vfork parent waiting for its child's execve or exit. */
static int in_vfork(struct task *t)
{
	return t->state == T_KERNEL && sys_row(t->nr)->class == C_CLONE &&
	       (clone_flags(t) & CLONE_VFORK);
}

/* Whether R.tasks[i] is the first of its process not in a vfork (its
 * threads share one header and one descriptor table). */
static int first_of_process(int i)
{
	for (int j = 0; j < i; j++)
		if (R.tasks[j]->tgid == R.tasks[i]->tgid && !in_vfork(R.tasks[j]))
			return 0;
	return 1;
}

/* The loader maps a library with several mmaps of one descriptor in a
 * row (four for libc): what the first of them found out about the
 * descriptor (three calls on its /proc link, 8 us) serves the next while
 * nothing came between. Its record then follows the last one's (event):
 * a call of the process (a buffered close and open as well, drained at
 * the mmap's entry), a signal or another thread's stop would have made
 * a record between them. */
static struct {
	pid_t pid;
	int fd;
	uint64_t event;	/* R.event after the last one's record */
	int wr;		/* open for writing (a regular file's) */
	struct stat st;	/* zeros where stat failed */
	char path[4096];
} last;

/* What file_mapped needs of descriptor fd of cur: in last. */
static void fd_file(int fd, const char *src)
{
	if (last.pid == cur->p.pid && last.fd == fd && R.event == last.event + 1) {
		last.event = R.event;
		return;
	}
	last.pid = cur->p.pid;
	last.fd = fd;
	last.event = R.event;
	if (stat(src, &last.st) < 0)
		memset(&last.st, 0, sizeof last.st);
	if (!S_ISREG(last.st.st_mode))
		return;
	ssize_t n = readlink(src, last.path, sizeof last.path - 1);
	last.path[n > 0 ? n : 0] = 0;
	last.wr = fd_writable(src);
}

/* cur mapped the file open at descriptor a[4] (an mmap's arguments a,
 * not MAP_ANONYMOUS): the file into the store, or emulated by replay
 * when mapped shared and writable (emu_map). Anything but a regular file
 * (or /dev/zero) stops the recording. */
void file_mapped(const uint64_t a[6])
{
	char src[64];
	snprintf(src, sizeof src, "/proc/%d/fd/%d", cur->p.pid, (int)a[4]);
	fd_file((int)a[4], src);
	struct stat fst = last.st;
	if (S_ISREG(fst.st_mode)) {
		const char *path = last.path;
		int wr = last.wr, fresh = !emu_is(fst.st_dev, fst.st_ino);
		if (emu_map(&cur->p, a, &fst, wr)) {
			/* Any process may have the file open: none
			 * writes to it without a stop from now on (a vfork
			 * parent looks again at the end of its vfork). */
			for (int i = 0; fresh && i < R.ntasks; i++)
				if (!in_vfork(R.tasks[i]) && first_of_process(i))
					buf_rescan(&R.tasks[i]->p);
			/* Its bytes now, hashed afresh (stores through a
			 * mapping need not change the mtime), and copied:
			 * they change. */
			store_forget(&R, fst.st_dev, fst.st_ino);
			store_file(&R, src, &fst, path, IF_MAP, a[5], 1);
			uint64_t id[3] = { fst.st_dev, fst.st_ino, wr };
			tw_item(&R.w, IT_EMUFILE, 0, id, 20, NULL, 0);
		} else {
			store_file(&R, src, &fst, path, IF_MAP, a[5], wr);
		}
	} else if (!(S_ISCHR(fst.st_mode) && fst.st_rdev == makedev(1, 5))) {
		stop_recording(EXIT_TRACE, "the program mapped %s, which is not a regular "
			       "file; rewind cannot record that yet", src);
	}
}
