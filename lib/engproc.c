/* engproc.c: processes and mappings in a replay: execve, spawn and clone
 * made again, and emulated mappings filled from the trace. */
#include "engint.h"
#include "count.h"
#include "files.h"
#include "maps.h"
#include "pin.h"
#include "sys.h"
#include "tsc.h"
#include "tscshare.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

/* Whether another thread of t's process is inside an execve whose end
 * is still to come. */
int eng_sibling_execs(struct engine *e, const struct eng_task *t)
{
	for (int i = 0; i < e->ntasks; i++) {
		const struct eng_task *o = &e->tasks[i];
		if (o != t && o->rtgid == t->rtgid && o->state == ET_INCALL &&
		    o->entrylen >= 2 && sys_lookup(get16(o->entry)) &&
		    sys_lookup(get16(o->entry))->class == C_EXECVE)
			return 1;
	}
	return 0;
}

/* The current thread's execve (resumed) kills the other threads of its
 * process; the kernel finishes it once they are reaped. Reap them, and
 * check their ends against the trace. An execve from a thread other than
 * the leader gives it the leader's id: the kernel releases the leader
 * itself, and the exec's stops come from the leader's pid. */
static void exec_reap(struct engine *e)
{
	struct eng_task *me = cur_task(e);
	for (int i = 0; i < e->ntasks; i++) {
		struct eng_task *o = &e->tasks[i];
		if (o == me || o->rtgid != me->rtgid || o->state == ET_GONE)
			continue;
		if (o->rtid != o->rtgid) {
			int st;
			while (waitpid(o->p.pid, &st, __WALL) >= 0 && !WIFEXITED(st) && !WIFSIGNALED(st))
				;
			if (o->doomed && !eng_same_end(o->want, st))
				eng_diverge(e, "expected thread %u to end with status 0x%x, got 0x%x",
					o->rtid, o->want, st);
			o->status = st;
			if (!o->doomed) {
				/* rec saw its end only after the execve's: its
				 * record comes later, and checks the status. */
				o->doomed = 2;
				if (o->p.memfd >= 0)
					close(o->p.memfd);
				o->p.memfd = -1;
				continue;
			}
		} else {
			if (!o->doomed)
				eng_diverge(e, "thread %u lives on after thread %u's execve", o->rtid,
					me->rtid);
			e->p.pid = o->p.pid;	/* where the exec's stops come from */
			me->rtid = me->rtgid;
			o->status = o->want;
		}
		o->state = ET_GONE;
		o->doomed = 0;
		if (o->p.memfd >= 0)
			close(o->p.memfd);
		o->p.memfd = -1;
	}
}

/* Run a syscall the tracee is stopped at the entry of, to its exit. */
void eng_run_call(struct engine *e, struct user_regs_struct *r)
{
	int st;
	e->how = RESUME_SYSCALL;
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	if (r->orig_rax == SYS_execve && eng_live(e) > 1)
		exec_reap(e);
	int k = eng_wait_stop(e, &st);
	if (k == PS_EXEC) {
		pt_reopen_mem(&e->p);
		pt_resume(&e->p, RESUME_SYSCALL, 0);
		k = eng_wait_stop(e, &st);
	}
	if (k != PS_SYSEXIT)
		eng_diverge(e, "expected the end of the syscall, got %s", eng_describe_stop(e, k, st));
	e->stop = PS_SYSEXIT;
	pt_getregs(&e->p, r);
}

/* Mappings of a file's bytes from this size on are mapped from replay's
 * copy by injected calls (each two stops) instead of copied in (a page
 * fault and a write to /proc/PID/mem a page): a make -j2 of 13 files
 * replayed 7 to 10% faster with 64 KiB than with 256 KiB here, and no
 * faster with 16 KiB. One within the file's pages is made so by the
 * program's own call (eng_map_direct), one past them over an anonymous
 * mapping (map_from_file). */
#define MAP_BY_FILE (64 << 10)

/* Put the path of replay's descriptor fd (/proc/PID/fd/N) in the program
 * whose stack pointer is rsp: below the red zone, where a signal frame
 * would go (a thread's stack may be small), at *sp, its *plen bytes; the
 * bytes it covers are kept in save for the caller to write back.
 * Returns 0, or -1 when it could not be placed. */
static int put_fd_path(struct engine *e, uint64_t rsp, int fd, uint64_t *sp, size_t *plen,
		       uint8_t save[64])
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/fd/%d", getpid(), fd);
	*plen = strlen(path) + 1;
	*sp = (rsp - 128 - *plen) & ~15ull;
	return pt_read(&e->p, *sp, save, *plen) == (ssize_t)*plen && pt_write(&e->p, *sp, path, *plen) == 0
		       ? 0 : -1;
}

/* Open replay's descriptor fd in the program (registers r, stopped at a
 * syscall's exit, whose syscall instruction is at at), with flags, its
 * path placed by put_fd_path. Returns -1 when the path could not be
 * placed, else 0 with *pfd the program's descriptor or openat's -errno. */
static int open_in_program(struct engine *e, const struct user_regs_struct *r, uint64_t at, int fd,
			   int flags, uint64_t *pfd)
{
	uint64_t sp;
	size_t plen;
	uint8_t save[64];
	if (put_fd_path(e, r->rsp, fd, &sp, &plen, save) < 0)
		return -1;
	uint64_t oa[6] = { (uint64_t)(int64_t)AT_FDCWD, sp, flags | O_CLOEXEC };
	*pfd = -EIO;
	eng_inject(&e->p, r, at, SYS_openat, oa, pfd, NULL);
	pt_write(&e->p, sp, save, plen);
	return 0;
}

/* Map len bytes of the open file fd at off over the start of the
 * anonymous mapping that the private file mapping sc made in the
 * program, by calls injected at its syscall-exit stop: 0, or -1 with the
 * anonymous mapping in place (made again if the kernel had dropped it). */
static int map_from_file(struct engine *e, const struct trace_syscall *sc, int fd, uint64_t off,
			 uint64_t len)
{
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	uint64_t at = r.rip - 2, pfd, ret = -EIO, cr;
	if (open_in_program(e, &r, at, fd, O_RDONLY, &pfd) < 0 || (int64_t)pfd < 0)
		return -1;
	uint64_t flags = (sc->args[3] & ~(uint64_t)MAP_FIXED_NOREPLACE) | MAP_FIXED;
	uint64_t a[6] = { sc->ret, len, sc->args[2], flags, pfd, off };
	eng_inject(&e->p, &r, at, SYS_mmap, a, &ret, NULL);
	uint64_t ca[6] = { pfd };
	eng_inject(&e->p, &r, at, SYS_close, ca, &cr, NULL);
	if (ret == (uint64_t)sc->ret)
		return 0;
	/* Refused (a trace on a noexec mount, say): anonymous again. */
	eng_map_anon(e, sc, len);
	return -1;
}

void eng_map_anon(struct engine *e, const struct trace_syscall *sc, uint64_t len)
{
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	/* Its other flags (MAP_NORESERVE, MAP_STACK...) kept, as before. */
	uint64_t flags = (sc->args[3] & ~(uint64_t)(MAP_FIXED_NOREPLACE | MAP_SHARED_VALIDATE)) |
			 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t ret, a[6] = { sc->ret, len, sc->args[2], flags, (uint64_t)-1, 0 };
	if (eng_inject(&e->p, &r, r.rip - 2, SYS_mmap, a, &ret, NULL) < 0 || ret != (uint64_t)sc->ret)
		eng_diverge(e, "cannot map 0x%llx again", (unsigned long long)sc->ret);
}

/* Write n bytes of the open file fd from off into the program at addr. */
static void copy_in(struct engine *e, const char *path, int fd, uint64_t addr, uint64_t off, uint64_t n)
{
	static uint8_t buf[1 << 16];
	for (uint64_t done = 0; done < n;) {
		size_t want = n - done < sizeof buf ? n - done : sizeof buf;
		ssize_t k = pread(fd, buf, want, off + done);
		if (k <= 0)
			die(EXIT_TRACE, "%s: short read", path);
		if (pt_write(&e->p, addr + done, buf, k) < 0)
			eng_diverge(e, "cannot fill the mapping at 0x%llx", (unsigned long long)addr);
		done += k;
	}
}

int eng_map_direct(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it,
		   struct user_regs_struct *r, struct map_direct *d)
{
	uint64_t size = get64(it->p), off = sc->args[5], len = (sc->args[1] + 4095) & ~4095ull;
	if ((sc->args[3] & (MAP_SHARED_VALIDATE | MAP_ANONYMOUS)) != MAP_PRIVATE || sc->ret <= 0 ||
	    (sc->ret & 4095) || (off & 4095) || get64(it->p + 24) != off || off >= size ||
	    len < MAP_BY_FILE || len > ((size - off + 4095) & ~4095ull))
		return 0;
	const char *path = eng_blob_path(e, it, 0);
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	if (put_fd_path(e, r->rsp, d->fd, &d->sp, &d->plen, d->save) < 0) {
		close(d->fd);
		return 0;
	}
	uint64_t oa[6] = { (uint64_t)(int64_t)AT_FDCWD, d->sp, O_RDONLY | O_CLOEXEC };
	r->orig_rax = SYS_openat;
	pt_set_args(r, oa);
	pt_setregs(&e->p, r);
	return 1;
}

void eng_map_direct_end(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it,
			struct user_regs_struct *r, struct map_direct *d)
{
	pt_write(&e->p, d->sp, d->save, d->plen);
	uint64_t pfd = r->rax, at = r->rip - 2, ret = -EIO, cr, len = (sc->args[1] + 4095) & ~4095ull;
	uint64_t flags = sc->args[3] & MAP_FIXED ? sc->args[3] : sc->args[3] | MAP_FIXED_NOREPLACE;
	if ((int64_t)pfd >= 0) {
		uint64_t a[6] = { sc->ret, len, sc->args[2], flags, pfd, sc->args[5] };
		eng_inject(&e->p, r, at, SYS_mmap, a, &ret, NULL);
		uint64_t ca[6] = { pfd };
		eng_inject(&e->p, r, at, SYS_close, ca, &cr, NULL);
	}
	if (ret != (uint64_t)sc->ret) {
		/* Refused (a trace on a noexec mount, say): anonymous, the
		 * bytes copied in. */
		uint64_t a[6] = { sc->ret, len, sc->args[2], flags | MAP_ANONYMOUS, (uint64_t)-1, 0 };
		if (eng_inject(&e->p, r, at, SYS_mmap, a, &ret, NULL) == 0 && ret == (uint64_t)sc->ret) {
			uint64_t size = get64(it->p), off = sc->args[5];
			copy_in(e, eng_blob_path(e, it, 0), d->fd, ret, off, size - off < len ? size - off : len);
		}
	}
	close(d->fd);
	r->rax = ret;
}

/* Fill a mapping replay made anonymous with the recorded file's bytes:
 * copied in, or, for a big private one (sc, the mmap), the mapping made
 * the file's copy's. */
void eng_fill_map(struct engine *e, const struct trace_syscall *sc, uint64_t addr, uint64_t len,
		  const struct trace_item *it)
{
	const char *path = eng_blob_path(e, it, 0);
	uint64_t size = get64(it->p), off = get64(it->p + 24);
	if (off >= size)
		return;
	uint64_t n = size - off < len ? size - off : len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	/* A private mapping can be the file's, as it was in the recording,
	 * up to the page that holds the file's last byte (its tail reads
	 * zero either way); the pages past it stay anonymous, readable by
	 * tseek and the stack unwinder as before. */
	if (sc && (sc->args[3] & MAP_SHARED_VALIDATE) == MAP_PRIVATE && n >= MAP_BY_FILE &&
	    !(off & 4095) && map_from_file(e, sc, fd, off, (n + 4095) & ~4095ull) == 0)
		n = 0;
	copy_in(e, path, fd, addr, off, n);
	close(fd);
	eng_note_map(e, addr, len, it);
}

void eng_note_map(struct engine *e, uint64_t addr, uint64_t len, const struct trace_item *it)
{
	struct files_ref f;
	if (e->mapped && files_ref(it, &f) == 0)
		e->mapped(e->ctx, addr, len, eng_blob_path(e, it, 0), f.path, get64(it->p + 24));
}

/* Whether none of the n pages from addr of process pid is a private copy
 * (written, or swapped out): /proc/PID/pagemap's bits 63 (present), 62
 * (swapped) and 61 (a file's page). */
static int all_file_pages(pid_t pid, uint64_t addr, uint64_t n)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/pagemap", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = fd >= 0;
	uint64_t ent[512];
	for (uint64_t i = 0; ok && i < n;) {
		size_t want = n - i < 512 ? n - i : 512;
		ssize_t k = pread(fd, ent, want * 8, (addr / 4096 + i) * 8);
		if (k != (ssize_t)(want * 8))
			ok = 0;
		for (size_t j = 0; ok && j < want; j++)
			if ((ent[j] >> 62 & 1) || ((ent[j] >> 63 & 1) && !(ent[j] >> 61 & 1)))
				ok = 0;
		i += want;
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

int eng_map_same(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it)
{
	static int off_env = -1;
	if (off_env < 0)
		off_env = env_flag("REWIND_NO_MAP_SAME");
	uint64_t addr = sc->args[0], len = (sc->args[1] + 4095) & ~4095ull, off = sc->args[5];
	uint64_t size = get64(it->p);
	/* Flags that change nothing but where the mapping goes. */
	const uint64_t plain = MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE | MAP_EXECUTABLE;
	if (off_env || (sc->args[3] & ~plain) || !(sc->args[3] & MAP_FIXED) || sc->ret != (int64_t)addr ||
	    (addr & 4095) || (off & 4095) || !len || off + len > ((size + 4095) & ~4095ull) ||
	    get64(it->p + 24) != off)
		return 0;
	struct stat st;
	if (stat(eng_blob_path(e, it, 0), &st) < 0)
		return 0;
	struct maps_line m;
	return maps_at(e->p.pid, addr, &m) == 1 && addr + len <= m.hi && m.ino == st.st_ino &&
	       m.dev == st.st_dev && m.perm[3] == 'p' && m.off + (addr - m.lo) == off &&
	       all_file_pages(e->p.pid, addr, len / 4096);
}

/* Tell e->mapped that the program of the exec record e->cur is about to
 * run from path, and its interpreter maybe from the trace's copy. */
void eng_note_exec(struct engine *e, const char *path)
{
	struct trace_item it;
	struct files_ref f;
	char blob[4200];
	if (!e->mapped)
		return;
	if (eng_find_item(&e->cur, IT_FILE, IF_EXE, &it) && files_ref(&it, &f) == 0)
		e->mapped(e->ctx, 0, 0, path, f.path, 0);
	if (eng_find_item(&e->cur, IT_FILE, IF_INTERP, &it) && files_ref(&it, &f) == 0) {
		files_blob(blob, sizeof blob, e->dir, f.hash);
		e->mapped(e->ctx, 0, 0, blob, f.path, 0);
	}
}

/* Whether a live replayed process maps copy i of the emulated files. */
static int emu_mapped(struct engine *e, int i)
{
	struct stat st;
	if (fstat(e->fs.f[i].fd, &st) < 0)
		return 1;
	for (int t = 0; t < e->ntasks; t++) {
		if (e->tasks[t].state == ET_GONE)
			continue;
		FILE *f = maps_open(t == e->ti ? e->p.pid : e->tasks[t].p.pid);
		int hit = 0;
		struct maps_line m;
		while (f && !hit && maps_next(f, &m))
			hit = m.ino == st.st_ino && !strncmp(m.name, "/memfd:", 7);
		if (f)
			fclose(f);
		if (hit)
			return 1;
	}
	return 0;
}

/* Perform the mmap e->cur (registers r at its seccomp stop, arguments
 * a) on replay's copy of the file it maps (items fi, IT_FILE, and ei,
 * IT_EMUFILE): the copy is opened in the program through /proc, mapped,
 * and closed, by injected calls. Every mapping of the file then shares
 * the copy's pages, as they shared the file's. */
void eng_map_emulated(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
			 uint64_t a[6], const struct trace_item *fi, const struct trace_item *ei)
{
	struct files_ref f;
	if (ei->len < 20 || files_ref(fi, &f) < 0)
		eng_bad_record(e, "bad file item");
	uint64_t dev = get64(ei->p), ino = get64(ei->p + 8);
	int writable = get32(ei->p + 16) != 0;
	int i = emufs_find(&e->fs, dev, ino);
	if (i < 0 || !emufs_holds(&e->fs, i, f.size, f.hash)) {
		/* A copy that no process maps can be made the file's bytes
		 * again: nothing has seen the difference. */
		if (i >= 0 && emu_mapped(e, i))
			eng_diverge(e, "%s holds other bytes than replay's copy of it: something outside the "
				"recording changed it while it was mapped shared", f.path);
		i = emufs_load(&e->fs, i, dev, ino, eng_blob_path(e, fi, 0), f.size);
		if (i < 0)
			eng_diverge(e, "cannot make replay's copy of %s: %s", f.path, strerror(errno));
	}
	uint64_t at = r->rip - 2, fd, ret = -EIO, cr;
	if (open_in_program(e, r, at, e->fs.f[i].fd, writable ? O_RDWR : O_RDONLY, &fd) < 0)
		eng_diverge(e, "cannot place a path on the stack");
	e->stop = PS_SYSEXIT;
	if ((int64_t)fd < 0)
		eng_diverge(e, "cannot open replay's copy of %s in the program: %s", f.path,
			strerror(-(int64_t)fd));
	a[0] = sc->ret;
	a[4] = fd;
	if (!(a[3] & MAP_FIXED))
		a[3] |= MAP_FIXED_NOREPLACE;
	eng_inject(&e->p, r, at, SYS_mmap, a, &ret, NULL);
	uint64_t ca[6] = { fd };
	eng_inject(&e->p, r, at, SYS_close, ca, &cr, NULL);
	if (ret != (uint64_t)sc->ret)
		eng_diverge(e, "mmap of %s returned 0x%llx, the trace has 0x%llx", f.path,
			(unsigned long long)ret, (unsigned long long)sc->ret);
}

/* Detach the SysV shared memory attached at addr in the replayed
 * process (registers r at the shmdt's seccomp stop), as the kernel's
 * shmdt does: the first mapping of a segment (its emulated copy) at or
 * after addr whose offset is its distance from addr, and then those of
 * the same segment up to its size from addr at such offsets (mprotect
 * may have split one, munmap taken a piece). 0, or -1 if none. */
static int shm_detach(struct engine *e, uint64_t addr, struct user_regs_struct *r)
{
	uint64_t lo[64], hi[64], ino = 0, size = 0;
	int n = 0;
	FILE *f = maps_open(e->p.pid);
	struct maps_line m;
	while (f && n < 64 && maps_next(f, &m)) {
		if (m.lo < addr || !m.ino || strncmp(m.name, "/memfd:", 7) || m.off != m.lo - addr ||
		    m.perm[3] != 's' || (ino && (m.ino != ino || m.hi - addr > size)))
			continue;
		if (!ino) {
			/* The copy is replay's own memfd: its size from
			 * there (map_files/ is for CAP_SYS_ADMIN only). */
			struct stat st;
			int k = 0;
			while (k < e->fs.n && (fstat(e->fs.f[k].fd, &st) < 0 || st.st_ino != m.ino))
				k++;
			if (k == e->fs.n)
				continue;
			ino = m.ino;
			size = (st.st_size + 4095) & ~4095ull;
		}
		lo[n] = m.lo;
		hi[n++] = m.hi;
	}
	if (f)
		fclose(f);
	for (int i = 0; i < n; i++) {
		uint64_t a[6] = { lo[i], hi[i] - lo[i] }, ret;
		if (eng_inject(&e->p, r, r->rip - 2, SYS_munmap, a, &ret, NULL) < 0 || ret)
			eng_diverge(e, "shmdt: cannot unmap 0x%llx", (unsigned long long)lo[i]);
	}
	e->stop = PS_SYSEXIT;
	return n ? 0 : -1;
}

/* Replay a successful shmat (registers r at its seccomp stop, r0 to give
 * back) or shmdt: the segment is emulated as a file mapped shared, its
 * copy mapped where the kernel attached it, and unmapped at shmdt. */
void eng_replay_shm(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
		       struct user_regs_struct *r0)
{
	struct trace_item fi, ei;
	struct files_ref f;
	if (sc->nr == SYS_shmdt) {
		if (shm_detach(e, sc->args[0], r) < 0)
			eng_diverge(e, "shmdt: nothing is attached at 0x%llx",
				(unsigned long long)sc->args[0]);
	} else {
		if (!eng_find_item(&e->cur, IT_EMUFILE, 0, &ei) || !eng_find_item(&e->cur, IT_FILE, IF_MAP, &fi) ||
		    files_ref(&fi, &f) < 0)
			eng_bad_record(e, "shmat without its segment");
		uint64_t flags = sc->args[2];
		uint64_t a[6] = { sc->ret, f.size,
				  PROT_READ | (flags & SHM_RDONLY ? 0 : PROT_WRITE) |
				  (flags & SHM_EXEC ? PROT_EXEC : 0),
				  MAP_SHARED | (flags & SHM_REMAP ? MAP_FIXED : 0), 0, 0 };
		eng_map_emulated(e, sc, r, a, &fi, &ei);
	}
	r0->rax = sc->ret;
	pt_setregs(&e->p, r0);
}

/* The file to execve for the exec record e->cur: the trace's copy of the
 * executable (into e->exe). The kernel loads the ELF interpreter from the
 * path the executable names; when the file there is no longer the
 * recorded one but the trace holds a copy (tpack), a copy of the
 * executable is made whose PT_INTERP names a short link to it, in a
 * directory *tmp that the caller removes after the exec. */
const char *eng_exec_file(struct engine *e, char *tmp, size_t tmplen)
{
	static char path[4200];
	struct trace_item exe, in;
	tmp[0] = 0;
	if (!eng_find_item(&e->cur, IT_FILE, IF_EXE, &exe))
		eng_bad_record(e, "execve without its file");
	snprintf(e->exe, sizeof e->exe, "%s", eng_blob_path(e, &exe, 0));
	snprintf(path, sizeof path, "%s", e->exe);
	struct files_ref f;
	const char *why;
	char blob[4200];
	if (!eng_find_item(&e->cur, IT_FILE, IF_INTERP, &in) || files_ref(&in, &f) < 0 ||
	    files_same(f.path, &f, &why) == 0)
		return path;
	files_blob(blob, sizeof blob, e->dir, f.hash);
	char *abs = realpath(blob, NULL);	/* the link must work from /tmp */
	if (!abs || files_same(abs, &f, &why) != 0) {
		free(abs);
		return path;	/* not in the trace: eng_finish_exec() names it */
	}
	snprintf(blob, sizeof blob, "%s", abs);
	free(abs);
	/* Read the executable, point its PT_INTERP at tmp/l, write tmp/x. */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *img = NULL;
	if (fd < 0 || fstat(fd, &st) < 0 || !(img = malloc(st.st_size ? st.st_size : 1)) ||
	    read(fd, img, st.st_size) != st.st_size)
		die(EXIT_TRACE, "%s: cannot read: %s", path, strerror(errno));
	close(fd);
	snprintf(tmp, tmplen, "/tmp/rwi-XXXXXX");
	if (!mkdtemp(tmp))
		die(EXIT_TRACE, "mkdtemp: %s", strerror(errno));
	char link[64], copy[64];
	snprintf(link, sizeof link, "%s/l", tmp);
	snprintf(copy, sizeof copy, "%s/x", tmp);
	uint64_t phoff = st.st_size >= 64 ? get64(img + 32) : 0;
	uint16_t phentsize = st.st_size >= 64 ? get16(img + 54) : 0, phnum = st.st_size >= 64 ? get16(img + 56) : 0;
	int done = 0;
	for (int i = 0; i < phnum && phentsize >= 56 && phoff + (i + 1) * (uint64_t)phentsize <= (uint64_t)st.st_size; i++) {
		const uint8_t *ph = img + phoff + i * phentsize;
		uint64_t off = get64(ph + 8), sz = get64(ph + 32);
		if (get32(ph) != 3 /* PT_INTERP */ || off + sz > (uint64_t)st.st_size || sz <= strlen(link))
			continue;
		memset(img + off, 0, sz);
		memcpy(img + off, link, strlen(link));
		done = 1;
	}
	if (!done || symlink(blob, link) < 0 || (fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500)) < 0 ||
	    write_all(fd, img, st.st_size) < 0 || close(fd) < 0)
		die(EXIT_TRACE, "%s: cannot make a copy that loads the trace's %s: %s", path, f.path,
		    done ? strerror(errno) : "no PT_INTERP long enough");
	free(img);
	snprintf(path, sizeof path, "%s", copy);
	return path;
}

/* Remove what eng_exec_file() made, once the kernel has mapped it. */
void eng_exec_done(const char *tmp)
{
	char p[80];
	if (!tmp[0])
		return;
	snprintf(p, sizeof p, "%s/x", tmp);
	unlink(p);
	snprintf(p, sizeof p, "%s/l", tmp);
	unlink(p);
	rmdir(tmp);
}

/* After execve: check the interpreter the kernel mapped, then put back
 * the recorded stack and registers. moved: it came from the trace. */
void eng_finish_exec(struct engine *e, int moved)
{
	struct trace_item it, regs, stack;
	snprintf(cur_task(e)->exe, sizeof cur_task(e)->exe, "%s", e->exe);
	/* An exec forgets the clear-tid address and the alternate stack. */
	cur_task(e)->ctid = 0;
	cur_task(e)->alt[0] = cur_task(e)->alt[2] = 0;
	cur_task(e)->alt[1] = SS_DISABLE;
	size_t off = trace_fixed_size(TR_SYSCALL);
	while (trace_item(&e->cur, &off, &it) > 0)
		if (it.tag == IT_FILE && it.flags == IF_INTERP) {
			eng_blob_path(e, &it, 0);	/* the trace is whole */
			if (!moved)
				eng_blob_path(e, &it, 1);	/* and the kernel mapped the same bytes */
		}
	if (!eng_find_item(&e->cur, IT_REGS, -1, &regs) || !eng_find_item(&e->cur, IT_STACK, -1, &stack) ||
	    regs.len != sizeof(struct user_regs_struct) || stack.len < 8)
		eng_bad_record(e, "execve without registers and stack");
	struct user_regs_struct now, want;
	memcpy(&want, regs.p, sizeof want);
	pt_getregs(&e->p, &now);
	uint64_t sp = get64(stack.p);
	if (now.rsp < sp) {
		size_t gap = sp - now.rsp;
		uint8_t *zero = calloc(1, gap);
		if (!zero || pt_write(&e->p, now.rsp, zero, gap) < 0)
			eng_diverge(e, "cannot clear the new stack");
		free(zero);
	}
	if (pt_write(&e->p, sp, stack.p + 8, stack.len - 8) < 0)
		eng_diverge(e, "cannot restore the initial stack at 0x%llx (stack layout differs)",
			(unsigned long long)sp);
	pt_setregs(&e->p, &want);
	if (tsc_exec(&e->p, cur_task(e)->rtgid, e->exe) < 0)
		eng_diverge(e, "cannot make CPUID fault again after the execve (arch_prctl "
			    "ARCH_SET_CPUID): %s", strerror(errno));
	count_exec(&e->p, cur_task(e)->rtgid, cur_task(e)->rtid, e->exe);
}

/* In the replay's first process, just before its execve. */
static int spawn_before_exec(void)
{
	pin_self();
	return tsc_arm();
}

/* The first execve: start the tracee on the trace's copy of the
 * executable, with the recorded arguments and environment, padded so that
 * its stack is at least as deep as the recorded one. */

void eng_spawn(struct engine *e, const struct trace_syscall *sc)
{
	struct trace_item exe, argv_it, env_it, stack;
	if (!eng_find_item(&e->cur, IT_FILE, IF_EXE, &exe) || !eng_find_item(&e->cur, IT_ARG, 1, &argv_it) ||
	    !eng_find_item(&e->cur, IT_ARG, 2, &env_it) || !eng_find_item(&e->cur, IT_STACK, -1, &stack))
		eng_bad_record(e, "first execve lacks its file, arguments or stack");
	/* Each is u64 full length, then NUL-terminated strings: the last
	 * must end in the item, or strlen below would run past it. */
	if (argv_it.len < 8 || env_it.len < 8 || (argv_it.len > 8 && argv_it.p[argv_it.len - 1]) ||
	    (env_it.len > 8 && env_it.p[env_it.len - 1]))
		eng_bad_record(e, "first execve's arguments or environment are damaged");
	if (sc->ret != 0)
		die(EXIT_TRACE, "%s: the recorded program did not start (execve failed)", e->dir);
	char tmp[64];
	char *path = strdup(eng_exec_file(e, tmp, sizeof tmp));
	eng_note_exec(e, path);
	char *strs[2] = { xmalloc(argv_it.len), xmalloc(env_it.len + stack.len + 64) };
	char **vec[2];
	const struct trace_item *src[2] = { &argv_it, &env_it };
	for (int v = 0; v < 2; v++) {
		size_t len = src[v]->len - 8, n = 0;
		memcpy(strs[v], src[v]->p + 8, len);
		for (size_t i = 0; i < len; i++)
			n += strs[v][i] == 0;
		vec[v] = xmalloc((n + 3) * sizeof(char *));
		size_t k = 0;
		for (size_t i = 0; i < len; i += strlen(strs[v] + i) + 1)
			vec[v][k++] = strs[v] + i;
		if (v == 1) {
			char *pad = strs[1] + len;
			size_t plen = stack.len > 120000 ? 120000 : stack.len;
			memcpy(pad, "REWIND_PAD=", 11);
			memset(pad + 11, 'x', plen);
			pad[11 + plen] = 0;
			vec[v][k++] = pad;
		}
		vec[v][k] = NULL;
	}
	pin_choose(tsc_table_cpu());	/* where rec ran it, if allowed */
	(void)tsc_unshare();	/* a second start (gdb's run, a seek's
				   fallback): the child must not inherit it */
	pt_spawn(&e->p, path, vec[0], vec[1], NULL, spawn_before_exec);
	pin_self();
	tsc_share(tsc_traps());	/* again after a second start */
	e->started = 1;
	e->ti = eng_add_task(e, e->cur.tid, e->cur.tid, e->p.pid);
	struct user_regs_struct r;
	eng_run_call(e, &r);
	eng_exec_done(tmp);
	if ((int64_t)r.rax != 0)
		eng_diverge(e, "execve of %s failed: %s", path, strerror(-(int64_t)r.rax));
	eng_finish_exec(e, tmp[0] != 0);
	free(path);
	for (int v = 0; v < 2; v++) {
		free(strs[v]);
		free(vec[v]);
	}
}

/* The clone flags and the parent and child tid pointers of a clone-like
 * call with arguments a. */
static uint64_t clone_args(struct engine *e, long nr, const uint64_t a[6], uint64_t *ptid,
			   uint64_t *ctid)
{
	*ptid = *ctid = 0;
	if (nr == SYS_clone) {
		*ptid = a[2];
		*ctid = a[3];
		return a[0];
	}
	if (nr == SYS_clone3) {
		uint64_t ca[4] = { 0 };	/* flags, pidfd, child_tid, parent_tid */
		pt_read(&e->p, a[0], ca, sizeof ca);
		*ctid = ca[2];
		*ptid = ca[3];
		return ca[0];
	}
	return nr == SYS_vfork ? CLONE_VM | CLONE_VFORK : 0;
}

/* Perform the clone-like call the current thread is at the entry of:
 * the new thread or process joins the tasks under the recorded id sc->ret
 * (the kernel gives it another one) and waits at its first stop. The
 * parent waits at its syscall-exit stop; a vfork parent stays in the
 * kernel until its child execs or exits. */
void eng_clone_start(struct engine *e, const struct trace_syscall *sc)
{
	uint64_t ptid, ctid, flags = clone_args(e, sc->nr, sc->args, &ptid, &ctid);
	int st;
	/* CLONE_UNTRACED: rec stripped it too, to keep the child recorded.
	 * Namespaces: the program's calls are answered from the trace, so
	 * replay needs none (nor the privilege to make them), and in a new
	 * pid namespace the signals replay raises would come from nowhere. */
	const uint64_t strip = CLONE_UNTRACED | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
			       CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP;
	if (sc->nr == SYS_clone && (flags & strip)) {
		struct user_regs_struct r;
		pt_getregs(&e->p, &r);
		r.rdi &= ~strip;
		pt_setregs(&e->p, &r);
	}
	/* clone3 only: CLONE_NEWTIME (0x80), and CLONE_INTO_CGROUP, whose
	 * cgroup descriptor replay answered the open of (the child's
	 * cgroup is the trace's to say, as its cgroup.procs read). */
	uint64_t f3 = flags & ~(strip | 0x80 | 0x200000000ull);
	int put_back = sc->nr == SYS_clone3 && f3 != flags && pt_write(&e->p, sc->args[0], &f3, 8) == 0;
	e->how = RESUME_SYSCALL;
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	int k = eng_wait_stop(e, &st);
	int ev = st >> 16;
	if (k != PS_OTHER || (ev != PTRACE_EVENT_CLONE && ev != PTRACE_EVENT_FORK &&
			      ev != PTRACE_EVENT_VFORK))
		eng_diverge(e, "expected a new thread or process, got %s", eng_describe_stop(e, k, st));
	unsigned long child = 0;
	ptrace(PTRACE_GETEVENTMSG, e->p.pid, 0, &child);
	int cst;
	while (waitpid(child, &cst, __WALL) < 0 && errno == EINTR)
		;
	if (!WIFSTOPPED(cst))
		eng_diverge(e, "the new thread %lu did not start", child);
	struct eng_task *me = cur_task(e);
	uint32_t rtid = sc->ret, rtgid = flags & CLONE_THREAD ? me->rtgid : rtid;
	uint32_t seen = sc->ret, self = sc->ret;
	struct trace_item it;
	if (eng_find_item(&e->cur, IT_TASK, -1, &it) && it.len >= 8) {
		/* The records' id of the thread, and in a pid namespace the
		 * ones its parent and itself see. (An entry record has only
		 * the records' id.) */
		rtid = get32(it.p);
		rtgid = get32(it.p + 4);
		if (it.len >= 12)
			self = get32(it.p + 8);
	}
	int ci = eng_add_task(e, rtid, rtgid, child);
	/* What the kernel gave it that a checkpoint must give it again. */
	e->tasks[ci].ctid = flags & CLONE_CHILD_CLEARTID ? ctid : 0;
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM)
		memcpy(e->tasks[ci].alt, cur_task(e)->alt, sizeof cur_task(e)->alt);
	if (!(flags & CLONE_THREAD)) {
		tsc_fork(cur_task(e)->rtgid, rtid);
		count_fork(cur_task(e)->rtgid, rtid);
	}
	memcpy(e->tasks[ci].exe, cur_task(e)->exe, sizeof e->tasks[ci].exe);
	pt_reopen_mem(&e->tasks[ci].p);
	if (put_back) {	/* the flags as the program wrote them, in both copies */
		pt_write(&e->p, sc->args[0], &flags, 8);
		if (!(flags & CLONE_VM))
			pt_write(&e->tasks[ci].p, sc->args[0], &flags, 8);
	}
	/* The kernel wrote this run's thread id where the program asked;
	 * the program saw the recorded one. */
	if (flags & CLONE_PARENT_SETTID)
		pt_write(&e->p, ptid, &seen, 4);
	if (flags & CLONE_CHILD_SETTID)
		pt_write(&e->tasks[ci].p, ctid, &self, 4);
	if (flags & CLONE_VFORK)
		pt_getregs(&e->p, &cur_task(e)->kregs);
	pt_resume(&e->p, RESUME_SYSCALL, 0);
	cur_task(e)->state = ET_KERNEL;
	e->stop = PS_OTHER;
	if (flags & CLONE_VFORK)
		return;
	/* Any other parent comes to its syscall-exit stop at once: wait for
	 * it now, not at the call's end. Other threads may run before that
	 * end, and meanwhile a debugger reads this thread's registers
	 * (gdbstub's reverse-step did, and found it still running: ESRCH).
	 * Those show the recorded result, not this run's thread id. */
	k = eng_wait_stop(e, &st);
	if (k != PS_SYSEXIT)
		eng_diverge(e, "expected the end of %s, got %s", eng_sysname(sc->nr), eng_describe_stop(e, k, st));
	e->stop = PS_SYSEXIT;
	struct user_regs_struct r;
	pt_getregs(&e->p, &r);
	r.rax = sc->ret;
	pt_setregs(&e->p, &r);
}

/* The end of a clone-like call: its syscall-exit stop (reached in
 * eng_clone_start(), but by a vfork parent only once its child has execed or
 * exited), where the program sees the recorded id. */
void eng_clone_finish(struct engine *e, const struct trace_syscall *sc,
			 struct user_regs_struct *r)
{
	int st;
	if (e->stop == PS_OTHER) {	/* a vfork parent: waited for here */
		int k = eng_wait_stop(e, &st);
		if (k != PS_SYSEXIT)
			eng_diverge(e, "expected the end of %s, got %s", eng_sysname(sc->nr), eng_describe_stop(e, k, st));
		e->stop = PS_SYSEXIT;
	}
	cur_task(e)->state = ET_STOPPED;
	pt_getregs(&e->p, r);
	r->rax = sc->ret;
	pt_setregs(&e->p, r);
	eng_apply_mem(e, &e->cur);	/* the recorded pidfd of CLONE_PIDFD */
}
