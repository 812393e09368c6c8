/* rwbuf.c: librewind-buf.so, which rec preloads into the recorded program:
 * under rec it makes common calls that cannot block without a ptrace stop
 * and logs them; under replay it answers them from the recorded log. */

/* The rule that keeps replay exact: each wrapper makes exactly one
 * syscall, with the same number and arguments whether it goes through
 * the untraced instruction (logged) or the traced one (rec and replay see
 * it as usual); the header in buf_hdr only decides which. Under replay
 * the engine may put the thread's next recorded calls in the buffer:
 * each wrapper then answers its call from the next entry when number,
 * arguments and input bytes match, and else goes the traced way, where
 * the engine checks the call as usual and reports a divergence. */
#include "bufabi.h"
#include "trace.h"	/* the item tags and TRACE_ARG_PREFIX (constants only here) */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The functions behind the exported names (see WRAP below). */
#define IMPL static __attribute__((used, noinline))

/* What fstat and newfstatat write is the kernel's struct stat, which
 * is glibc's on x86-64. */
_Static_assert(sizeof(struct stat) == 144, "struct stat is not the x86-64 kernel's");

/* Entry flag: the input prefix is not known to be readable; rec saves
 * it from memory when it drains (the mappings cannot change before). */
#define ENT_REC_INPUTS 1

static struct buf_hdr *hdr;
/* &hdr->lib_sp once the header is the library's, for wrap_common. */
__attribute__((visibility("hidden"))) uint64_t *rwbuf_lib_sp;

/* libc's own read, write, pread64 and pwrite64: the traced path calls
 * them, so that a call that may block stays a cancellation point. Each
 * makes the one syscall the untraced path makes, with the same
 * arguments. */
static ssize_t (*libc_read)(int, void *, size_t);
static ssize_t (*libc_write)(int, const void *, size_t);
static ssize_t (*libc_pread)(int, void *, size_t, off_t);
static ssize_t (*libc_pwrite)(int, const void *, size_t, off_t);

/* libc's functions for the traced path of calls this library leaves to
 * libc (a cancellation point, or a conversion it does). All are looked
 * up at start: a look-up on first use would come only where a call goes
 * traced, which differs between rec (the untraced path) and a replay
 * that traces each call, and dlsym frees what dlerror kept from the
 * program's last failed dlopen, so the program's heap would differ. */
static void *libc_openat, *libc_close, *libc_fcntl, *libc_ioctl;
static void *libc_getcwd, *libc_realpath, *libc_faccessat;

/* The entries libc's own syscall stubs are redirected to (bufredir.c),
 * defined by WRAP_HIDDEN below. */
#define HIDDEN_ENTRY(name) extern char rwbuf_##name[] __attribute__((visibility("hidden")))
HIDDEN_ENTRY(lseek);
HIDDEN_ENTRY(fstatat);
HIDDEN_ENTRY(write_nocancel);
HIDDEN_ENTRY(close_nocancel);
HIDDEN_ENTRY(open_nocancel);

/* Through the syscall instruction here: rec's filter stops it. */
static long traced(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 __asm__("r10") = a3, r8 __asm__("r8") = a4, r9 __asm__("r9") = a5;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* Through the one at BUF_ADDR, which rec's filter lets pass. The library
 * is built with -mno-red-zone, so the call's push clobbers nothing. */
static long untraced(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 __asm__("r10") = a3, r8 __asm__("r8") = a4, r9 __asm__("r9") = a5;
	register long t __asm__("r11") = BUF_ADDR;	/* the call clobbers it anyway */
	long ret;
	__asm__ volatile("call *%%r11"
			 : "=a"(ret), "+r"(t)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "memory");
	return ret;
}

/* An ASan runtime dies at start unless it is the first library loaded,
 * and this one is preloaded before it. ASan asks the program for its
 * default options through this weak symbol, before it checks: the check
 * is turned off (ASAN_OPTIONS and a program's own definition still win). */
__attribute__((visibility("default"))) const char *__asan_default_options(void)
{
	return "verify_asan_link_order=0";
}

/* Entry i of h's redirect table: libc's function name, a syscall stub
 * of call nr (rec checks it is), to the wrapper at to. A libc without
 * it leaves the entry empty, and no error for the program's dlerror. */
static void redirect(struct buf_hdr *h, int i, const char *name, void *to, uint32_t nr)
{
	void *at = dlsym(RTLD_NEXT, name);
	if (!at) {
		(void)dlerror();
		return;
	}
	h->redirect[i] = (struct buf_redirect){ (uint64_t)at, (uint64_t)to, nr, 0 };
}

__attribute__((constructor)) static void rwbuf_init(void)
{
	libc_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	libc_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	libc_pread = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
	libc_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
	libc_openat = dlsym(RTLD_NEXT, "openat64");
	libc_close = dlsym(RTLD_NEXT, "close");
	libc_fcntl = dlsym(RTLD_NEXT, "fcntl64");
	libc_ioctl = dlsym(RTLD_NEXT, "ioctl");
	libc_getcwd = dlsym(RTLD_NEXT, "getcwd");
	libc_realpath = dlsym(RTLD_NEXT, "realpath");
	libc_faccessat = dlsym(RTLD_NEXT, "faccessat");
	if (!libc_read || !libc_write || !libc_pread || !libc_pwrite)
		return;	/* no libc to hand calls to: every call traced (slow_io) */
	long p = traced(SYS_mmap, BUF_ADDR, BUF_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (long)BUF_ADDR)
		return;		/* taken: every call stays traced */
	volatile uint8_t *t = (uint8_t *)BUF_ADDR;
	t[0] = 0x0f;		/* syscall */
	t[1] = 0x05;
	t[2] = 0xc3;		/* ret */
	struct buf_hdr *h = (struct buf_hdr *)BUF_HDR;
	h->magic = BUF_MAGIC;
	/* The calls libc's stdio and others make inside libc, past the
	 * names this library defines: lseek (fseek), fstatat (fstat, and
	 * stat through it), and the write, close and open that are no
	 * cancellation points (fclose, and libc's own files: locales,
	 * /etc, fopen; its __read_nocancel has no mov to take the jmp's
	 * place).
	 * REWIND_NO_REDIRECT=1 leaves them to libc (each a stop);
	 * replay runs with the program's recorded environment, so its
	 * library decides as this one did. */
	const char *no = getenv("REWIND_NO_REDIRECT");
	if (!no || !*no || !strcmp(no, "0")) {
		redirect(h, 0, "__lseek", rwbuf_lseek, SYS_lseek);
		redirect(h, 1, "fstatat64", rwbuf_fstatat, SYS_newfstatat);
		redirect(h, 2, "__write_nocancel", rwbuf_write_nocancel, SYS_write);
		redirect(h, 3, "__close_nocancel", rwbuf_close_nocancel, SYS_close);
		redirect(h, 4, "__open_nocancel", rwbuf_open_nocancel, SYS_openat);
	}
	/* rec sets the header up at the end of this call. */
	if (traced(SYS_mprotect, BUF_ADDR, BUF_PAGE, PROT_READ | PROT_EXEC, 0, 0, 0) == 0) {
		hdr = h;
		rwbuf_lib_sp = &h->lib_sp;
	}
}

static int bit(const uint8_t *set, long fd)
{
	return fd >= 0 && fd < BUF_NFD && (set[fd / 8] >> (fd % 8) & 1);
}

/* A can() that made no entry after all. */
static void unbusy(void)
{
	__asm__ volatile("" ::: "memory");
	hdr->busy = 0;
}

/* Whether this call may go untraced with up to max bytes of items; if
 * so the buffer is marked busy until end().
 * The decision is made only once busy is set: rec never preempts a busy
 * thread, so a state it records in here holds nothing read from rec's
 * header. Replay sets such a state in a process whose header is its
 * own, and there the call goes traced, as it may. Decided before (the
 * mode read, then a preemption), replay's library would log an entry
 * into its header, and answer its next call from it: a call more than
 * rec made. */
static int can(size_t max)
{
	struct buf_hdr *h = hdr;
	/* Only spares the writes below when it is no: nothing is decided
	 * by a yes here. A nested call (a signal handler inside this
	 * library) finds busy set, and must leave it so. */
	if (!h || h->mode != BUF_MODE_REC || h->busy)
		return 0;
	h->busy = 1;
	__asm__ volatile("" ::: "memory");
	if (h->mode != BUF_MODE_REC || h->traced_next || h->used >= BUF_REC_DATA ||
	    h->used + BUF_LOG_HDR + 64 + max > BUF_DATA_SIZE) {
		unbusy();
		return 0;
	}
	return 1;
}

/* Entry under construction. */
struct ent {
	uint8_t *start, *p;
};

/* memcpy without libc and without vector registers (see wrap_common). */
static void copy(void *dst, const void *src, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void put(struct ent *e, const void *src, size_t n)
{
	copy(e->p, src, n);
	e->p += n;
}

/* Starts an entry with room for its 64 bytes of call: its items may
 * come before the call is made (see head). */
static void reserve(struct ent *e)
{
	e->start = (uint8_t *)BUF_DATA + hdr->used;
	e->p = e->start + BUF_LOG_HDR + 64;
}

/* Fills in the call of the entry, once it is made. */
static void head(struct ent *e, long nr, int flags, long a0, long a1, long a2, long a3, long ret)
{
	struct ent h = { e->start, e->start + BUF_LOG_HDR };
	uint16_t h16[2] = { (uint16_t)nr, (uint16_t)flags };
	uint32_t z = 0;
	int64_t args[7] = { a0, a1, a2, a3, 0, 0, ret };
	put(&h, h16, 4);
	put(&h, &z, 4);
	put(&h, args, sizeof args);
}

/* An entry made after its call, with its items to follow. */
static void begin(struct ent *e, long nr, int flags, long a0, long a1, long a2, long a3, long ret)
{
	reserve(e);
	head(e, nr, flags, a0, a1, a2, a3, ret);
}

static void item(struct ent *e, int tag, int flags, uint64_t head, const void *data, size_t n)
{
	uint16_t t[2] = { (uint16_t)tag, (uint16_t)flags };
	uint32_t len = 8 + n;
	put(e, t, 4);
	put(e, &len, 4);
	put(e, &head, 8);
	put(e, data, n);
}

static void end(struct ent *e)
{
	uint32_t size = e->p - e->start - BUF_LOG_HDR, z = 0;
	uint8_t *s = e->start;
	struct ent h = { s, s };
	put(&h, &size, 4);
	put(&h, &z, 4);
	__asm__ volatile("" ::: "memory");
	hdr->used += BUF_LOG_HDR + size;
	hdr->count++;
	__asm__ volatile("" ::: "memory");
	hdr->busy = 0;
}

/* Replay: answer the call from the next entry the engine put in the
 * buffer. Returns 1 with *ret set, or 0 (no entry, or it does not match:
 * the traced path lets the engine check the call). */
static int answered_str(long nr, long a0, long a1, long a2, long a3, int str, long *ret)
{
	struct buf_hdr *h = hdr;
	if (!h || h->mode != BUF_MODE_REPLAY || h->consumed >= h->count ||
	    h->roff + BUF_ENT_HDR + 64 > BUF_DATA_SIZE)
		return 0;
	const uint8_t *ent = (const uint8_t *)BUF_DATA + h->roff, *pl = ent + BUF_ENT_HDR;
	uint32_t size = *(const uint32_t *)ent;
	const int64_t *args = (const int64_t *)(pl + 8);
	int64_t want[6] = { a0, a1, a2, a3, 0, 0 };
	if (size < 64 || h->roff + BUF_ENT_HDR + size > BUF_DATA_SIZE ||
	    *(const uint16_t *)pl != (uint16_t)nr)
		return 0;
	for (int i = 0; i < 6; i++)
		if (args[i] != want[i])
			return 0;
	/* Inputs first, so that a mismatch leaves memory as it was. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t off = 64; off < size;) {
			const uint8_t *it = pl + off;
			uint16_t tag = *(const uint16_t *)it, fl = *(const uint16_t *)(it + 2);
			uint32_t len = *(const uint32_t *)(it + 4);
			if (len < 8 || off + 8 + len > size || (tag != IT_ARG && tag != IT_MEM) ||
			    (tag == IT_ARG && fl >= 6))
				return 0;
			const uint8_t *d = it + 16;
			size_t n = len - 8;
			if (pass == 0 && tag == IT_ARG) {
				const uint8_t *m = (const uint8_t *)args[fl];
				for (size_t i = 0; i < n; i++)
					if (m[i] != d[i])
						return 0;
				/* A path is saved whole (up to 4095 bytes). */
				if (fl == str && n < 4095 && m[n])
					return 0;
			} else if (pass == 1 && tag == IT_MEM) {
				copy((void *)*(const uint64_t *)(it + 8), d, n);
			}
			off += 8 + len;
		}
	}
	*ret = *(const int64_t *)(pl + 56);
	h->roff += (BUF_ENT_HDR + size + 7) & ~7ull;
	h->consumed++;
	return 1;
}

static int answered(long nr, long a0, long a1, long a2, long a3, long *ret)
{
	return answered_str(nr, a0, a1, a2, a3, -1, ret);
}

static long ret_errno(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* A call whose only output is up to out bytes at out_addr, written when
 * it succeeds (OUT, or OBUF with the result as length when obuf). With
 * owned, the caller's can() said yes already. */
static long out_call(long nr, long a0, long a1, long a2, long a3, uint64_t out_addr, size_t out,
		     int obuf, int owned)
{
	long r;
	if (!owned && answered(nr, a0, a1, a2, a3, &r))
		return ret_errno(r);
	if (!owned && !can(16 + out))
		return ret_errno(traced(nr, a0, a1, a2, a3, 0, 0));
	long ret = untraced(nr, a0, a1, a2, a3, 0, 0);
	struct ent e;
	begin(&e, nr, 0, a0, a1, a2, a3, ret);
	size_t n = obuf ? (ret > 0 ? ((size_t)ret < out ? (size_t)ret : out) : 0) : out;
	if (ret >= 0 && out_addr && n)
		item(&e, IT_MEM, 0, out_addr, (const void *)out_addr, n);
	end(&e);
	return ret_errno(ret);
}

static long slow_io(long nr, long fd, const void *b, size_t n, off_t off);

/* write and pwrite64 (cancel: a cancellation point, whose traced path
 * is libc's): the input prefix is saved as rec's IT_ARG, after
 * the call, once the kernel read it. Still the bytes the call read: a
 * write stores nothing into the program's memory (rec clears the
 * fd_write bit of each descriptor of a file mapped shared, or of one
 * open for writing and mapped, which it emulates), and no other thread
 * runs meanwhile. */
static long in_call(long nr, long fd, const void *b, size_t n, long off, int cancel)
{
	size_t pre = n < TRACE_ARG_PREFIX ? n : TRACE_ARG_PREFIX;
	long r;
	if (answered(nr, fd, (long)b, n, off, &r))
		return ret_errno(r);
	if (!hdr || !bit(hdr->fd_write, fd) || !can(16 + pre))
		return cancel ? slow_io(nr, fd, b, n, off) : ret_errno(traced(nr, fd, (long)b, n, off, 0, 0));
	long ret = untraced(nr, fd, (long)b, n, off, 0, 0);
	struct ent e;
	/* The kernel read ret bytes; a shorter or failed call leaves the
	 * prefix's readability open. */
	int known = ret >= (long)pre;
	begin(&e, nr, known ? 0 : ENT_REC_INPUTS, fd, (long)b, n, off, ret);
	if (known)
		item(&e, IT_ARG, 1, n, b, pre);
	end(&e);
	return ret_errno(ret);
}

/* Whether a call that goes traced may go through libc's wrapper (a
 * cancellation point): not under replay for a call rec logged (raw_next),
 * whose recording ran none of libc's (counted) code. */
static int via_libc(void)
{
	return !hdr || hdr->mode == BUF_MODE_REC || !hdr->raw_next;
}

/* The traced path of the four calls that may block. */
static long slow_io(long nr, long fd, const void *b, size_t n, off_t off)
{
	switch (libc_read && libc_write && libc_pread && libc_pwrite && via_libc() ? nr : -1) {
	case SYS_read: return libc_read(fd, (void *)b, n);
	case SYS_write: return libc_write(fd, b, n);
	case SYS_pread64: return libc_pread(fd, (void *)b, n, off);
	case SYS_pwrite64: return libc_pwrite(fd, b, n, off);
	}
	return ret_errno(traced(nr, fd, (long)b, n, nr == SYS_read || nr == SYS_write ? 0 : off, 0, 0));
}

static int readable(long fd)
{
	return hdr && bit(hdr->fd_read, fd);
}

IMPL ssize_t impl_write(int fd, const void *b, size_t n)
{
	return in_call(SYS_write, fd, b, n, 0, 1);
}

IMPL ssize_t impl_pwrite(int fd, const void *b, size_t n, off_t off)
{
	return in_call(SYS_pwrite64, fd, b, n, off, 1);
}

/* libc's __write_nocancel, redirected here: no cancellation point, so
 * its traced path is the bare call, as libc's. */
IMPL ssize_t impl_write_nocancel(int fd, const void *b, size_t n)
{
	return in_call(SYS_write, fd, b, n, 0, 0);
}

IMPL ssize_t impl_read(int fd, void *b, size_t n)
{
	long r;
	if (answered(SYS_read, fd, (long)b, n, 0, &r))
		return ret_errno(r);
	if (!readable(fd) || !can(16 + n))
		return slow_io(SYS_read, fd, b, n, 0);
	return out_call(SYS_read, fd, (long)b, n, 0, (uint64_t)b, n, 1, 1);
}

IMPL ssize_t impl_pread(int fd, void *b, size_t n, off_t off)
{
	long r;
	if (answered(SYS_pread64, fd, (long)b, n, off, &r))
		return ret_errno(r);
	if (!readable(fd) || !can(16 + n))
		return slow_io(SYS_pread64, fd, b, n, off);
	return out_call(SYS_pread64, fd, (long)b, n, off, (uint64_t)b, n, 1, 1);
}

IMPL off_t impl_lseek(int fd, off_t off, int whence)
{
	return out_call(SYS_lseek, fd, off, whence, 0, 0, 0, 0, 0);
}

IMPL int impl_fstat(int fd, struct stat *st)
{
	return out_call(SYS_fstat, fd, (long)st, 0, 0, (uint64_t)st, sizeof *st, 0, 0);
}

/* The path of a call, saved as rec saves a string argument: whole, up to
 * 4095 bytes, as item argi of e. The caller knows the kernel can read it
 * (a call with it got another answer than EFAULT) and that it is still
 * the path that call read. */
static void path_item(struct ent *e, int argi, const char *path)
{
	size_t len = 0;
	while (len < 4095 && path[len])
		len++;
	item(e, IT_ARG, argi, len, path, len);
}

/* path_item before anything is known of the path: the kernel copies it
 * into e (process_vm_readv of this process, a page at a time, so that
 * a name that ends before an unreadable page is read whole). Returns 0
 * when it cannot be read up to its end, where the call would fail with
 * EFAULT, or when the kernel would not copy it (the traced way then
 * lets rec read it). */
static int path_grab(struct ent *e, int argi, const char *path)
{
	uint8_t *d = e->p + 16;
	long pid = untraced(SYS_getpid, 0, 0, 0, 0, 0, 0);
	size_t got = 0, len = 0;
	while (got < 4096) {
		size_t n = 4096 - ((uintptr_t)(path + got) & 4095);
		if (n > 4096 - got)
			n = 4096 - got;
		struct iovec l = { d + got, n }, r = { (void *)(path + got), n };
		long k = untraced(SYS_process_vm_readv, pid, (long)&l, 1, (long)&r, 1, 0);
		if (k <= 0)
			return 0;
		got += k;
		for (; len < got; len++)
			if (!d[len])
				goto whole;
	}
	len = 4095;	/* too long (ENAMETOOLONG): saved as rec saves it */
whole:
	item(e, IT_ARG, argi, len, d, len);	/* copy() of d onto itself: a no-op */
	return 1;
}

/* A call with a path (argument argi) and an output of out bytes at
 * out_addr when it succeeds (with obuf, ret bytes up to out). A lookup
 * may wait for a network file system; these are local here. */
static long path_call(long nr, long a0, long a1, long a2, long a3, int argi, const char *path,
		      uint64_t out_addr, size_t out, int obuf)
{
	long r;
	if (answered_str(nr, a0, a1, a2, a3, argi, &r))
		return ret_errno(r);
	if (!can(16 + 4096 + 16 + out))
		return ret_errno(traced(nr, a0, a1, a2, a3, 0, 0));
	/* An output that may reach the path (stat(p, p), readlink(p, p, n))
	 * can leave another one in memory: the path is saved before the
	 * call then. Else it is the same after the call, where the kernel
	 * has shown it readable, and the copy before (two calls more, 3 us
	 * a stat under rec here) is spared. */
	struct ent e;
	reserve(&e);
	uint64_t p = (uint64_t)path;
	int before = out_addr && out && out_addr < p + 4096 && out_addr + out > p;
	if (before && !path_grab(&e, argi, path)) {
		unbusy();
		return ret_errno(traced(nr, a0, a1, a2, a3, 0, 0));
	}
	long ret = untraced(nr, a0, a1, a2, a3, 0, 0);
	if (ret == -EFAULT && !before) {
		/* The path may run into memory that cannot be read, where
		 * the library at replay would fault comparing it. A lookup
		 * changes nothing: it is made again traced, and rec saves
		 * what it can read. */
		unbusy();
		return ret_errno(traced(nr, a0, a1, a2, a3, 0, 0));
	}
	head(&e, nr, 0, a0, a1, a2, a3, ret);
	if (!before)
		path_item(&e, argi, path);
	/* The output, as the call left it. */
	size_t n = obuf ? (ret > 0 ? ((size_t)ret < out ? (size_t)ret : out) : 0) : out;
	if (ret >= 0 && out_addr && n)
		item(&e, IT_MEM, 0, out_addr, (const void *)out_addr, n);
	end(&e);
	return ret_errno(ret);
}

IMPL int impl_fstatat(int dfd, const char *path, struct stat *st, int flags)
{
	return path_call(SYS_newfstatat, dfd, (long)path, (long)st, flags, 1, path, (uint64_t)st,
			 sizeof *st, 0);
}

IMPL int impl_stat(const char *path, struct stat *st)
{
	return impl_fstatat(AT_FDCWD, path, st, 0);
}

IMPL int impl_lstat(const char *path, struct stat *st)
{
	return impl_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

IMPL int impl_access(const char *path, int mode)
{
	return path_call(SYS_access, (long)path, mode, 0, 0, 0, path, 0, 0, 0);
}

/* The 64-bit names: the same struct on x86-64. */
IMPL int impl_fstat64(int fd, struct stat64 *st)
{
	return impl_fstat(fd, (struct stat *)st);
}

IMPL int impl_fstatat64(int dfd, const char *path, struct stat64 *st, int flags)
{
	return impl_fstatat(dfd, path, (struct stat *)st, flags);
}

IMPL int impl_stat64(const char *path, struct stat64 *st)
{
	return impl_fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

IMPL int impl_lstat64(const char *path, struct stat64 *st)
{
	return impl_fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

IMPL int impl_clock_gettime(clockid_t clk, struct timespec *ts)
{
	return out_call(SYS_clock_gettime, clk, (long)ts, 0, 0, (uint64_t)ts, 16, 0, 0);
}

IMPL int impl_gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	if (tz)		/* two outputs: keep it simple */
		return ret_errno(traced(SYS_gettimeofday, (long)tv, (long)tz, 0, 0, 0, 0));
	return out_call(SYS_gettimeofday, (long)tv, 0, 0, 0, (uint64_t)tv, 16, 0, 0);
}

IMPL time_t impl_time(time_t *t)
{
	return out_call(SYS_time, (long)t, 0, 0, 0, (uint64_t)t, 8, 0, 0);
}

IMPL pid_t impl_getpid(void)
{
	return out_call(SYS_getpid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL pid_t impl_gettid(void)
{
	return out_call(SYS_gettid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL ssize_t impl_getrandom(void *b, size_t n, unsigned flags)
{
	/* GRND_RANDOM may block; so may the urandom pool before it is
	 * ready, which is long past once a program runs. Up to 256 bytes
	 * never come back short. */
	if ((flags & GRND_RANDOM) || n > 256)
		return ret_errno(traced(SYS_getrandom, (long)b, n, flags, 0, 0, 0));
	return out_call(SYS_getrandom, (long)b, n, flags, 0, (uint64_t)b, n, 1, 0);
}

static void set_bit(uint8_t *set, long fd, int v)
{
	if (fd >= 0 && fd < BUF_NFD)
		set[fd / 8] = (set[fd / 8] & ~(1 << fd % 8)) | v << fd % 8;
}

/* An int argument as it reaches the kernel through libc: the upper half
 * of its register is not defined, and replay compares all of it. Every
 * int argument this library passes on is zero-extended, to libc too. */
#define I32(x) ((long)(uint32_t)(x))

static long slow_openat(long dfd, const char *path, long flags, long mode, int cancel)
{
	long (*f)(long, const char *, long, long) = libc_openat;
	if (cancel && f && via_libc())
		return f(dfd, path, flags, mode);
	return ret_errno(traced(SYS_openat, dfd, (long)path, flags, mode, 0, 0));
}

/* Whether the untraced open (made with O_NONBLOCK) gave a regular file
 * or a directory (*dir), now as the program asked for it. */
static int plain_file(long fd, int flags, int *dir)
{
	struct stat *st = (struct stat *)BUF_SCRATCH;
	if (untraced(SYS_fstat, fd, (long)st, 0, 0, 0, 0) < 0 ||
	    !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))
		return 0;
	*dir = S_ISDIR(st->st_mode);
	if (!(flags & O_NONBLOCK)) {
		long fl = untraced(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
		if (fl < 0 || untraced(SYS_fcntl, fd, F_SETFL, fl & ~O_NONBLOCK, 0, 0, 0) < 0)
			return 0;
	}
	return 1;
}

/* open and openat, as the one syscall libc makes for them (with cancel,
 * a cancellation point: the traced path is libc's; libc's
 * __open_nocancel, redirected here, has none). A read-only
 * open (nothing created or truncated) of a regular file or a directory
 * goes untraced: a look at the path first keeps devices, FIFOs and
 * sockets traced (their opens may wait or do anything), and the open
 * itself is made with O_NONBLOCK, so that a file that changed in
 * between cannot hold it up (it is closed and opened again traced). */
static long open_call(long dfd, const char *path, long flags, long mode, int cancel)
{
	long r;
	dfd = I32(dfd);
	flags = I32(flags);
	if (!(flags & O_CREAT) && (flags & O_TMPFILE) != O_TMPFILE)
		mode = 0;	/* as libc passes it */
	if (answered_str(SYS_openat, dfd, (long)path, flags, mode, 1, &r))
		return ret_errno(r);
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC | O_PATH)) ||
	    (flags & O_TMPFILE) == O_TMPFILE || !can(16 + 4096 + 16))
		return slow_openat(dfd, path, flags, mode, cancel);
	struct stat *st = (struct stat *)BUF_SCRATCH;
	long s = untraced(SYS_newfstatat, dfd, (long)path, (long)st,
			  flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0, 0, 0);
	if (s == -EFAULT || (s == 0 && !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))) {
		unbusy();
		return slow_openat(dfd, path, flags, mode, cancel);
	}
	/* The look read the path: it is saved before the open, as every
	 * input is. */
	struct ent e;
	reserve(&e);
	path_item(&e, 1, path);
	long ret = untraced(SYS_openat, dfd, (long)path, flags | O_NONBLOCK, mode, 0, 0);
	int dir = 0;
	if (ret == -EAGAIN || (ret >= 0 && !plain_file(ret, flags, &dir))) {
		if (ret >= 0)
			untraced(SYS_close, ret, 0, 0, 0, 0, 0);
		unbusy();
		return slow_openat(dfd, path, flags, mode, cancel);
	}
	if (ret >= 0) {
		/* As rec's own look at the new descriptor would set them. */
		set_bit(hdr->fd_read, ret, !dir);
		set_bit(hdr->fd_write, ret, 0);
		set_bit(hdr->fd_close, ret, 1);
	}
	head(&e, SYS_openat, 0, dfd, (long)path, flags, mode, ret);
	end(&e);
	return ret_errno(ret);
}

IMPL int impl_open(const char *path, int flags, long mode)
{
	return open_call(AT_FDCWD, path, flags, mode, 1);
}

IMPL int impl_openat(int dfd, const char *path, int flags, long mode)
{
	return open_call(dfd, path, flags, mode, 1);
}

/* libc's __open_nocancel (its locale files, /etc's, stdio's fopen),
 * redirected here: openat of AT_FDCWD. */
IMPL int impl_open_nocancel(const char *path, int flags, long mode)
{
	return open_call(AT_FDCWD, path, flags, mode, 0);
}

/* close of a descriptor whose close cannot block; with cancel, its
 * traced path is libc's close, a cancellation point (libc's
 * __close_nocancel, redirected here, has none). */
static int close_call(int fd, int cancel)
{
	long r;
	if (answered(SYS_close, I32(fd), 0, 0, 0, &r))
		return ret_errno(r);
	if (!hdr || !bit(hdr->fd_close, fd) || !can(16)) {
		long (*f)(long) = libc_close;
		return f && cancel && via_libc() ? f(I32(fd)) :
						   ret_errno(traced(SYS_close, I32(fd), 0, 0, 0, 0, 0));
	}
	set_bit(hdr->fd_read, fd, 0);
	set_bit(hdr->fd_write, fd, 0);
	set_bit(hdr->fd_close, fd, 0);
	long ret = untraced(SYS_close, I32(fd), 0, 0, 0, 0, 0);
	struct ent e;
	begin(&e, SYS_close, 0, I32(fd), 0, 0, 0, ret);
	end(&e);
	return ret_errno(ret);
}

IMPL int impl_close(int fd)
{
	return close_call(fd, 1);
}

IMPL int impl_close_nocancel(int fd)
{
	return close_call(fd, 0);
}

/* fcntl: the flag reads and F_SETFD on any descriptor, and dups (the new
 * descriptor is what the old one is); the rest goes to libc (F_SETLKW
 * waits). */
IMPL int impl_fcntl(int fd, int cmd, long arg)
{
	long r;
	if (cmd != F_GETFD && cmd != F_GETFL && cmd != F_SETFD && cmd != F_DUPFD &&
	    cmd != F_DUPFD_CLOEXEC) {
		long (*f)(long, long, long) = libc_fcntl;
		return f ? f(I32(fd), I32(cmd), arg) :
			   ret_errno(traced(SYS_fcntl, I32(fd), I32(cmd), arg, 0, 0, 0));
	}
	if (answered(SYS_fcntl, I32(fd), I32(cmd), arg, 0, &r))
		return ret_errno(r);
	if (!can(16))
		return ret_errno(traced(SYS_fcntl, I32(fd), I32(cmd), arg, 0, 0, 0));
	long ret = untraced(SYS_fcntl, I32(fd), I32(cmd), arg, 0, 0, 0);
	if (ret >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {
		set_bit(hdr->fd_read, ret, bit(hdr->fd_read, fd));
		set_bit(hdr->fd_write, ret, bit(hdr->fd_write, fd));
		set_bit(hdr->fd_close, ret, bit(hdr->fd_close, fd));
	}
	struct ent e;
	begin(&e, SYS_fcntl, 0, I32(fd), I32(cmd), arg, 0, ret);
	end(&e);
	return ret_errno(ret);
}

/* isatty and ioctl TCGETS: a question about the terminal. */
IMPL int impl_isatty(int fd)
{
	uint64_t t[5];	/* the kernel's termios: 36 bytes */
	return out_call(SYS_ioctl, I32(fd), TCGETS, (long)t, 0, (uint64_t)t, 36, 0, 0) == 0;
}

IMPL int impl_ioctl(int fd, unsigned long req, long arg)
{
	if (req == TCGETS)
		return out_call(SYS_ioctl, I32(fd), TCGETS, arg, 0, arg, 36, 0, 0);
	long (*f)(long, unsigned long, long) = libc_ioctl;
	return f ? f(I32(fd), req, arg) : ret_errno(traced(SYS_ioctl, I32(fd), req, arg, 0, 0, 0));
}

IMPL ssize_t impl_readlink(const char *path, char *b, size_t n)
{
	return path_call(SYS_readlink, (long)path, (long)b, n, 0, 0, path, (uint64_t)b, n, 1);
}

IMPL ssize_t impl_readlinkat(int dfd, const char *path, char *b, size_t n)
{
	return path_call(SYS_readlinkat, I32(dfd), (long)path, (long)b, n, 1, path, (uint64_t)b, n, 1);
}

IMPL uid_t impl_getuid(void)
{
	return out_call(SYS_getuid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL uid_t impl_geteuid(void)
{
	return out_call(SYS_geteuid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL gid_t impl_getgid(void)
{
	return out_call(SYS_getgid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL gid_t impl_getegid(void)
{
	return out_call(SYS_getegid, 0, 0, 0, 0, 0, 0, 0, 0);
}

IMPL int impl_sysinfo(struct sysinfo *si)
{
	return out_call(SYS_sysinfo, (long)si, 0, 0, 0, (uint64_t)si, 112, 0, 0);
}

IMPL int impl_uname(struct utsname *u)
{
	return out_call(SYS_uname, (long)u, 0, 0, 0, (uint64_t)u, 390, 0, 0);
}

/* getdents64 of a directory (or a regular file, which fails): rwdir.c's
 * readdir calls it. */
IMPL ssize_t impl_getdents64(int fd, void *b, size_t n)
{
	long r;
	if (answered(SYS_getdents64, I32(fd), (long)b, n, 0, &r))
		return ret_errno(r);
	if (!hdr || !bit(hdr->fd_close, fd) || n > BUF_DATA_SIZE / 4 || !can(16 + n))
		return ret_errno(traced(SYS_getdents64, I32(fd), (long)b, n, 0, 0, 0));
	return out_call(SYS_getdents64, I32(fd), (long)b, n, 0, (uint64_t)b, n, 1, 1);
}

/* getcwd into the caller's buffer; the rest (allocating, or a directory
 * the kernel cannot name) goes to libc, which asks the kernel again. */
IMPL char *impl_getcwd(char *b, size_t n)
{
	char *(*f)(char *, size_t) = libc_getcwd;
	if (!b || !n)
		return f ? f(b, n) : (errno = ENOSYS, (char *)0);
	long r = out_call(SYS_getcwd, (long)b, n, 0, 0, (uint64_t)b, n, 1, 0);
	if (r > 0 && b[0] == '/')
		return b;
	if ((r >= 0 || errno == ENAMETOOLONG) && f)
		return f(b, n);
	return 0;
}

static size_t slen(const char *p)
{
	size_t n = 0;
	while (p[n])
		n++;
	return n;
}

/* Whether the rest of the name (end) asks for a directory: a trailing
 * slash, or "." or ".." after one (glibc's rule). */
static int wants_dir(const char *end)
{
	while (*end == '/') {
		while (*end == '/')
			end++;
		char c = *end++;
		if (c == 0)
			return 1;
		if (c != '.')
			return 0;
		if (!*end || (*end == '.' && (!end[1] || end[1] == '/')))
			return 1;
	}
	return 0;
}

static char *realpath_libc(const char *name, char *resolved)
{
	char *(*f)(const char *, char *) = libc_realpath;
	return f ? f(name, resolved) : (errno = ENOSYS, (char *)0);
}

/* realpath and canonicalize_file_name: glibc 2.36's algorithm (stdlib/
 * canonicalize.c: a readlink a component), whose readlink and getcwd
 * calls are internal to libc and so each a stop; here they are this
 * library's. Its buffers are glibc's first ones (1 KiB): where glibc
 * would grow one, the whole call is left to libc instead. */
IMPL char *impl_realpath(const char *name, char *resolved)
{
	char rname[1024], extra[1024], link[1024];
	const char *start, *end;
	char *dest;
	int links = 0, failed = 1;
	if (!name) {
		errno = EINVAL;
		return 0;
	}
	if (!name[0]) {
		errno = ENOENT;
		return 0;
	}
	if (name[0] != '/') {
		if (!getcwd(rname, sizeof rname)) {
			if (errno == ERANGE)
				return realpath_libc(name, resolved);
			dest = rname;
			goto error;
		}
		dest = rname + slen(rname);
	} else {
		dest = rname;
		*dest++ = '/';
	}
	for (start = name; *start; start = end) {
		while (*start == '/')
			start++;
		for (end = start; *end && *end != '/'; end++)
			;
		long len = end - start;
		if (len == 0)
			break;
		if (len == 1 && start[0] == '.')
			continue;
		if (len == 2 && start[0] == '.' && start[1] == '.') {
			if (dest > rname + 1)
				for (--dest; dest > rname && dest[-1] != '/'; --dest)
					;
			continue;
		}
		if (dest[-1] != '/')
			*dest++ = '/';
		if (rname + sizeof rname - dest < len + 2)
			return realpath_libc(name, resolved);
		copy(dest, start, len);
		dest += len;
		*dest = 0;
		ssize_t n = readlink(rname, link, sizeof link - 1);
		if (n >= (ssize_t)sizeof link - 1)
			return realpath_libc(name, resolved);
		if (n >= 0) {
			if (++links > 40) {	/* glibc's __eloop_threshold */
				errno = ELOOP;
				goto error;
			}
			link[n] = 0;
			size_t rest = slen(end);
			if (sizeof extra <= rest + n)
				return realpath_libc(name, resolved);
			/* end may point into extra: move the rest first. */
			for (size_t i = rest + 1; i-- > 0;)
				extra[n + i] = end[i];
			copy(extra, link, n);
			end = extra;
			if (link[0] == '/') {
				dest = rname;
				*dest++ = '/';
			} else if (dest > rname + 1) {
				for (--dest; dest > rname && dest[-1] != '/'; --dest)
					;
			}
		} else if (wants_dir(end)) {
			int (*f)(int, const char *, int, int) = libc_faccessat;
			dest[0] = '/';
			dest[1] = 0;
			if (!f || f(AT_FDCWD, rname, F_OK, AT_EACCESS) != 0)
				goto error;
		} else if (errno != EINVAL) {
			goto error;
		}
	}
	if (dest > rname + 1 && dest[-1] == '/')
		--dest;
	failed = 0;
error:
	*dest++ = 0;
	if (resolved) {
		/* The part resolved, after a missing or forbidden one. */
		if (!failed || errno == ENOENT || errno == EACCES)
			copy(resolved, rname, dest - rname);
		return failed ? 0 : resolved;
	}
	if (failed)
		return 0;
	char *r = malloc(dest - rname);
	if (r)
		copy(r, rname, dest - rname);
	return r;
}

IMPL char *impl_canonicalize_file_name(const char *name)
{
	return impl_realpath(name, 0);
}

/* The exported names: each enters its impl_ function through
 * wrap_common, which afterwards zeroes the caller-saved registers (but
 * rax) and the 512 bytes of stack below the caller's: whichever way a call
 * went (untraced and logged, traced, answered at replay), the program
 * finds the same registers and dead stack afterwards, which later calls
 * may pass on as unset arguments or padding. Around the call it keeps
 * the header's lib_sp (bufabi.h): the outermost call's stack pointer is
 * set, unless one above it is set already (a call from a signal handler
 * inside this library), and cleared at that call's end; one left by a
 * longjmp out of here is below the stack pointer, and the next call
 * takes its place. Only r10 and r11 are free at the entry. */
__asm__(".text\n"
	"wrap_common:\n"
	"\t.cfi_startproc\n"	/* unwind information, for replay --stack */
	"\tpush %rbx\n"
	"\t.cfi_adjust_cfa_offset 8\n"
	"\t.cfi_rel_offset %rbx, 0\n"
	"\tmov %rsp, %rbx\n"
	"\t.cfi_def_cfa_register %rbx\n"
	"\tand $-16, %rsp\n"
	"\tmov rwbuf_lib_sp(%rip), %r11\n"
	"\ttest %r11, %r11\n"
	"\tjz 1f\n"
	"\tmov (%r11), %r10\n"
	"\tcmp %rbx, %r10\n"
	"\tjae 1f\n"		/* an outer call's, above this one */
	"\tmov %rbx, (%r11)\n"
	"1:\n"
	"\tcall *%rax\n"
	"\tmov %rbx, %rsp\n"
	"\t.cfi_def_cfa_register %rsp\n"
	"\tmov rwbuf_lib_sp(%rip), %r11\n"
	"\ttest %r11, %r11\n"
	"\tjz 2f\n"
	"\tcmp %rbx, (%r11)\n"
	"\tjne 2f\n"
	"\tmovq $0, (%r11)\n"
	"2:\n"
	"\tmov %rax, %r11\n"
	"\tlea -512(%rbx), %rdi\n"
	"\txor %eax, %eax\n"
	"\tmov $64, %ecx\n"
	"\trep stosq\n"
	"\tmov %r11, %rax\n"
	"\tpop %rbx\n"
	"\t.cfi_adjust_cfa_offset -8\n"
	"\t.cfi_restore %rbx\n"
	"\txor %ecx, %ecx\n"
	"\txor %edx, %edx\n"
	"\txor %esi, %esi\n"
	"\txor %edi, %edi\n"
	"\txor %r8d, %r8d\n"
	"\txor %r9d, %r9d\n"
	"\txor %r10d, %r10d\n"
	"\txor %r11d, %r11d\n"
	"\tret\n"
	"\t.cfi_endproc\n");
#define WRAP(name) \
	__asm__(".globl " #name "\n.type " #name ", @function\n" #name ":\n" \
		"\tlea impl_" #name "(%rip), %rax\n\tjmp wrap_common\n.size " #name ", .-" #name "\n")
/* An entry for bufredir.c only: no name the program can bind to. */
#define WRAP_HIDDEN(name) \
	__asm__(".globl rwbuf_" #name "\n.hidden rwbuf_" #name "\n.type rwbuf_" #name ", @function\n" \
		"rwbuf_" #name ":\n\tlea impl_" #name "(%rip), %rax\n\tjmp wrap_common\n" \
		".size rwbuf_" #name ", .-rwbuf_" #name "\n")
#define ALIAS(name, to) __asm__(".globl " #name "\n.set " #name ", " #to "\n")
WRAP(write);
WRAP(pwrite);
WRAP(read);
WRAP(pread);
WRAP(lseek);
WRAP(fstat);
WRAP(fstatat);
WRAP(stat);
WRAP(lstat);
WRAP(access);
WRAP(fstat64);
WRAP(fstatat64);
WRAP(stat64);
WRAP(lstat64);
WRAP(clock_gettime);
WRAP(gettimeofday);
WRAP(time);
WRAP(getpid);
WRAP(gettid);
WRAP(getrandom);
WRAP(open);
WRAP(openat);
WRAP(close);
WRAP(fcntl);
WRAP(isatty);
WRAP(ioctl);
WRAP(readlink);
WRAP(readlinkat);
WRAP(getuid);
WRAP(geteuid);
WRAP(getgid);
WRAP(getegid);
WRAP(sysinfo);
WRAP(uname);
WRAP(getcwd);
WRAP(getdents64);
WRAP(realpath);
WRAP(canonicalize_file_name);
/* The names glibc also exports for them. */
ALIAS(pread64, pread);
ALIAS(pwrite64, pwrite);
ALIAS(lseek64, lseek);
ALIAS(__write, write);
ALIAS(__read, read);
ALIAS(open64, open);
ALIAS(__open, open);
ALIAS(__open64, open);
ALIAS(openat64, openat);
ALIAS(__close, close);
ALIAS(fcntl64, fcntl);
ALIAS(__fcntl, fcntl);
WRAP_HIDDEN(lseek);
WRAP_HIDDEN(fstatat);
WRAP_HIDDEN(write_nocancel);
WRAP_HIDDEN(close_nocancel);
WRAP_HIDDEN(open_nocancel);
