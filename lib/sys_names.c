/* sys_names.c: kernel constants' names as data tables, and the decoders
 * that print values with them (for tdump and for messages). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sys_names.h"

void sn_init(struct sn_buf *b, char *s, size_t cap)
{
	b->s = s;
	b->cap = cap;
	b->len = 0;
	b->full = 0;
	s[0] = 0;
}

void sn_puts(struct sn_buf *b, const char *s)
{
	size_t n = strlen(s), room = b->cap - 1 - b->len;

	if (n > room) {
		n = room;
		b->full = 1;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sn_putc(struct sn_buf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->full = 1;
		return;
	}
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}

void sn_printf(struct sn_buf *b, const char *fmt, ...)
{
	size_t room = b->cap - b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		b->len = b->cap - 1;
		b->full = 1;
	} else {
		b->len += n;
	}
}

/* errno values, from the kernel's asm-generic/errno*.h (the same on
 * x86-64 as this libc's, so its constants name the slots). */
#define E(x) [x] = #x
static const char *const errnames[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK),
	E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ECHRNG),
	E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH), E(ENOCSI),
	E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC),
	E(EBADSLT), E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR),
	E(ENONET), E(ENOPKG), E(EREMOTE), E(ENOLINK), E(EADV), E(ESRMNT),
	E(ECOMM), E(EPROTO), E(EMULTIHOP), E(EDOTDOT), E(EBADMSG),
	E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC),
	E(ELIBBAD), E(ELIBSCN), E(ELIBMAX), E(ELIBEXEC), E(EILSEQ),
	E(ERESTART), E(ESTRPIPE), E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ),
	E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT),
	E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH),
	E(ENETRESET), E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS), E(EISCONN),
	E(ENOTCONN), E(ESHUTDOWN), E(ETOOMANYREFS), E(ETIMEDOUT),
	E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH), E(EALREADY),
	E(EINPROGRESS), E(ESTALE), E(EUCLEAN), E(ENOTNAM), E(ENAVAIL),
	E(EISNAM), E(EREMOTEIO), E(EDQUOT), E(ENOMEDIUM), E(EMEDIUMTYPE),
	E(ECANCELED), E(ENOKEY), E(EKEYEXPIRED), E(EKEYREVOKED),
	E(EKEYREJECTED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL),
	E(EHWPOISON),
};
#undef E

/* The kernel's own codes (include/linux/errno.h) a tracer sees in rax
 * when a call is interrupted and will be restarted. */
static const struct {
	const char *name, *text;
} restart[] = {
	{ "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
	{ "ERESTARTNOINTR", "To be restarted" },
	{ "ERESTARTNOHAND", "To be restarted if no handler" },
	{ "ENOIOCTLCMD", "No ioctl command" },
	{ "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
};
#define RESTART_FIRST 512

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *errno_name(int e)
{
	if (e > 0 && (size_t)e < NELEM(errnames))
		return errnames[e];
	if (e >= RESTART_FIRST && (size_t)(e - RESTART_FIRST) < NELEM(restart))
		return restart[e - RESTART_FIRST].name;
	return NULL;
}

const char *errno_text(int e)
{
	if (e >= RESTART_FIRST && (size_t)(e - RESTART_FIRST) < NELEM(restart))
		return restart[e - RESTART_FIRST].text;
	if (!errno_name(e))
		return NULL;
	return strerrordesc_np(e);
}

#define S(x) [x] = #x
static const char *const signames[] = {
	S(SIGHUP), S(SIGINT), S(SIGQUIT), S(SIGILL), S(SIGTRAP), S(SIGABRT),
	S(SIGBUS), S(SIGFPE), S(SIGKILL), S(SIGUSR1), S(SIGSEGV), S(SIGUSR2),
	S(SIGPIPE), S(SIGALRM), S(SIGTERM), S(SIGSTKFLT), S(SIGCHLD),
	S(SIGCONT), S(SIGSTOP), S(SIGTSTP), S(SIGTTIN), S(SIGTTOU), S(SIGURG),
	S(SIGXCPU), S(SIGXFSZ), S(SIGVTALRM), S(SIGPROF), S(SIGWINCH),
	S(SIGIO), S(SIGPWR), S(SIGSYS),
};
#undef S

const char *signal_name(int sig)
{
	if (sig > 0 && (size_t)sig < NELEM(signames))
		return signames[sig];
	return NULL;
}

void sn_errno(struct sn_buf *b, int e)
{
	const char *s = errno_name(e);

	if (s)
		sn_puts(b, s);
	else
		sn_printf(b, "%d", e);
}

void sn_signal(struct sn_buf *b, int sig)
{
	const char *s = signal_name(sig);

	/* The kernel's real-time signals are 32-64; libc keeps the first
	 * few, so name them from the kernel's base as strace does. */
	if (s)
		sn_puts(b, s);
	else if (sig >= 32 && sig <= 64)
		sn_printf(b, "SIGRT_%d", sig - 32);
	else
		sn_printf(b, "%d", sig);
}

/* Named values and flag bits. */
struct sn_name {
	uint64_t v;
	const char *s;
};

static const char *lookup(const struct sn_name *t, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].s;
	return NULL;
}

/* v's name, or v in decimal (as a signed int when it looks negative). */
static void put_value(struct sn_buf *b, const struct sn_name *t, size_t n, uint64_t v)
{
	const char *s = lookup(t, n, v);

	if (s)
		sn_puts(b, s);
	else if ((int64_t)v < 0 && (int64_t)v >= INT32_MIN)
		sn_printf(b, "%lld", (long long)(int64_t)v);
	else
		sn_printf(b, "%llu", (unsigned long long)v);
}

/* The names of the flags set in v, in table order (so multi-bit flags
 * listed first win), then what is left in hex; sep says whether
 * something was printed before. Returns 1 if anything was printed. */
static int put_flags(struct sn_buf *b, const struct sn_name *t, size_t n, uint64_t v, int sep)
{
	for (size_t i = 0; i < n && v; i++) {
		if (t[i].v && (v & t[i].v) == t[i].v) {
			if (sep)
				sn_putc(b, '|');
			sn_puts(b, t[i].s);
			v &= ~t[i].v;
			sep = 1;
		}
	}
	if (v) {
		if (sep)
			sn_putc(b, '|');
		sn_printf(b, "%#llx", (unsigned long long)v);
		sep = 1;
	}
	return sep;
}

#define VALUE(b, t, v) put_value(b, t, NELEM(t), v)
#define FLAGS(b, t, v, sep) put_flags(b, t, NELEM(t), v, sep)

/* Open flags, octal as in asm-generic/fcntl.h (O_LARGEFILE is 0 in
 * 64-bit libc headers but the kernel sets and shows 0100000). */
static const struct sn_name oflags[] = {
	{ 01, "O_WRONLY" }, { 02, "O_RDWR" },
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
	{ 04010000, "O_SYNC" }, { 010000, "O_DSYNC" }, { 020000, "O_ASYNC" },
	{ 040000, "O_DIRECT" }, { 0100000, "O_LARGEFILE" },
	{ 020200000, "O_TMPFILE" }, { 0200000, "O_DIRECTORY" },
	{ 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 010000000, "O_PATH" },
};

void sn_oflags(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name accmode[] = {
		{ 0, "O_RDONLY" }, { 1, "O_WRONLY" }, { 2, "O_RDWR" }, { 3, "O_ACCMODE" },
	};

	/* O_PATH ignores the access mode; show it only when set. */
	if ((v & 010000000) && !(v & 3)) {
		FLAGS(b, oflags, v, 0);
		return;
	}
	sn_puts(b, lookup(accmode, NELEM(accmode), v & 3));
	FLAGS(b, oflags, v & ~(uint64_t)3, 1);
}

static const struct sn_name atflags[] = {
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" },
	{ 0x400, "AT_SYMLINK_FOLLOW" }, { 0x800, "AT_NO_AUTOMOUNT" },
	{ 0x1000, "AT_EMPTY_PATH" }, { 0x2000, "AT_STATX_FORCE_SYNC" },
	{ 0x4000, "AT_STATX_DONT_SYNC" }, { 0x8000, "AT_RECURSIVE" },
};

void sn_atflags(struct sn_buf *b, uint64_t v)
{
	if (!FLAGS(b, atflags, v, 0))
		sn_putc(b, '0');
}

void sn_atflags_access(struct sn_buf *b, uint64_t v)
{
	int sep = 0;

	if (v & 0x200) {
		sn_puts(b, "AT_EACCESS");
		sep = 1;
	}
	if (!FLAGS(b, atflags, v & ~(uint64_t)0x200, sep))
		sn_putc(b, '0');
}

static const struct sn_name prot[] = {
	{ 0x1, "PROT_READ" }, { 0x2, "PROT_WRITE" }, { 0x4, "PROT_EXEC" },
	{ 0x8, "PROT_SEM" }, { 0x01000000, "PROT_GROWSDOWN" },
	{ 0x02000000, "PROT_GROWSUP" },
};

void sn_prot(struct sn_buf *b, uint64_t v)
{
	if (!FLAGS(b, prot, v, 0))
		sn_puts(b, "PROT_NONE");
}

static const struct sn_name maptype[] = {
	{ 0x1, "MAP_SHARED" }, { 0x2, "MAP_PRIVATE" },
	{ 0x3, "MAP_SHARED_VALIDATE" }, { 0x8, "MAP_DROPPABLE" },
};

static const struct sn_name mflags[] = {
	{ 0x10, "MAP_FIXED" }, { 0x20, "MAP_ANONYMOUS" }, { 0x40, "MAP_32BIT" },
	{ 0x100, "MAP_GROWSDOWN" }, { 0x800, "MAP_DENYWRITE" },
	{ 0x1000, "MAP_EXECUTABLE" }, { 0x2000, "MAP_LOCKED" },
	{ 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" },
	{ 0x10000, "MAP_NONBLOCK" }, { 0x20000, "MAP_STACK" },
	{ 0x40000, "MAP_HUGETLB" }, { 0x80000, "MAP_SYNC" },
	{ 0x100000, "MAP_FIXED_NOREPLACE" }, { 0x4000000, "MAP_UNINITIALIZED" },
};

void sn_mflags(struct sn_buf *b, uint64_t v)
{
	const char *type = lookup(maptype, NELEM(maptype), v & 0xf);
	unsigned shift = (v >> 26) & 0x3f;
	int sep = 0;

	if (type) {
		sn_puts(b, type);
		sep = 1;
		v &= ~(uint64_t)0xf;
	}
	/* With MAP_HUGETLB, bits 26-31 are log2 of the page size. */
	if ((v & 0x40000) && shift) {
		v &= ~((uint64_t)0x3f << 26);
		sep = FLAGS(b, mflags, v, sep);
		sn_printf(b, "%sMAP_HUGE_%llu%s", sep ? "|" : "",
			  1ull << (shift % 10), shift >= 30 ? "GB" : shift >= 20 ? "MB" : "KB");
		return;
	}
	if (!FLAGS(b, mflags, v, sep))
		sn_putc(b, '0');
}

static const struct sn_name madv[] = {
	{ 0, "MADV_NORMAL" }, { 1, "MADV_RANDOM" }, { 2, "MADV_SEQUENTIAL" },
	{ 3, "MADV_WILLNEED" }, { 4, "MADV_DONTNEED" }, { 8, "MADV_FREE" },
	{ 9, "MADV_REMOVE" }, { 10, "MADV_DONTFORK" }, { 11, "MADV_DOFORK" },
	{ 12, "MADV_MERGEABLE" }, { 13, "MADV_UNMERGEABLE" },
	{ 14, "MADV_HUGEPAGE" }, { 15, "MADV_NOHUGEPAGE" },
	{ 16, "MADV_DONTDUMP" }, { 17, "MADV_DODUMP" },
	{ 18, "MADV_WIPEONFORK" }, { 19, "MADV_KEEPONFORK" },
	{ 20, "MADV_COLD" }, { 21, "MADV_PAGEOUT" },
	{ 22, "MADV_POPULATE_READ" }, { 23, "MADV_POPULATE_WRITE" },
	{ 24, "MADV_DONTNEED_LOCKED" }, { 25, "MADV_COLLAPSE" },
	{ 100, "MADV_HWPOISON" }, { 101, "MADV_SOFT_OFFLINE" },
	{ 102, "MADV_GUARD_INSTALL" }, { 103, "MADV_GUARD_REMOVE" },
};

void sn_madv(struct sn_buf *b, uint64_t v)
{
	VALUE(b, madv, v);
}

void sn_whence(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "SEEK_SET" }, { 1, "SEEK_CUR" }, { 2, "SEEK_END" },
		{ 3, "SEEK_DATA" }, { 4, "SEEK_HOLE" },
	};
	VALUE(b, t, v);
}

void sn_clock(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "CLOCK_REALTIME" }, { 1, "CLOCK_MONOTONIC" },
		{ 2, "CLOCK_PROCESS_CPUTIME_ID" }, { 3, "CLOCK_THREAD_CPUTIME_ID" },
		{ 4, "CLOCK_MONOTONIC_RAW" }, { 5, "CLOCK_REALTIME_COARSE" },
		{ 6, "CLOCK_MONOTONIC_COARSE" }, { 7, "CLOCK_BOOTTIME" },
		{ 8, "CLOCK_REALTIME_ALARM" }, { 9, "CLOCK_BOOTTIME_ALARM" },
		{ 11, "CLOCK_TAI" },
	};
	/* Negative ids are per-process and per-thread CPU clocks. */
	VALUE(b, t, (uint64_t)(int64_t)(int32_t)v);
}

void sn_archprctl(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0x1001, "ARCH_SET_GS" }, { 0x1002, "ARCH_SET_FS" },
		{ 0x1003, "ARCH_GET_FS" }, { 0x1004, "ARCH_GET_GS" },
		{ 0x1011, "ARCH_GET_CPUID" }, { 0x1012, "ARCH_SET_CPUID" },
		{ 0x1021, "ARCH_GET_XCOMP_SUPP" }, { 0x1022, "ARCH_GET_XCOMP_PERM" },
		{ 0x1023, "ARCH_REQ_XCOMP_PERM" },
		{ 0x1024, "ARCH_GET_XCOMP_GUEST_PERM" },
		{ 0x1025, "ARCH_REQ_XCOMP_GUEST_PERM" },
		{ 0x2001, "ARCH_MAP_VDSO_X32" }, { 0x2002, "ARCH_MAP_VDSO_32" },
		{ 0x2003, "ARCH_MAP_VDSO_64" },
		{ 0x4001, "ARCH_GET_UNTAG_MASK" }, { 0x4002, "ARCH_ENABLE_TAGGED_ADDR" },
		{ 0x4003, "ARCH_GET_MAX_TAG_BITS" }, { 0x4004, "ARCH_FORCE_TAGGED_SVA" },
		{ 0x5001, "ARCH_SHSTK_ENABLE" }, { 0x5002, "ARCH_SHSTK_DISABLE" },
		{ 0x5003, "ARCH_SHSTK_LOCK" }, { 0x5004, "ARCH_SHSTK_UNLOCK" },
		{ 0x5005, "ARCH_SHSTK_STATUS" },
	};
	VALUE(b, t, v);
}

void sn_futexop(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "FUTEX_WAIT" }, { 1, "FUTEX_WAKE" }, { 2, "FUTEX_FD" },
		{ 3, "FUTEX_REQUEUE" }, { 4, "FUTEX_CMP_REQUEUE" },
		{ 5, "FUTEX_WAKE_OP" }, { 6, "FUTEX_LOCK_PI" },
		{ 7, "FUTEX_UNLOCK_PI" }, { 8, "FUTEX_TRYLOCK_PI" },
		{ 9, "FUTEX_WAIT_BITSET" }, { 10, "FUTEX_WAKE_BITSET" },
		{ 11, "FUTEX_WAIT_REQUEUE_PI" }, { 12, "FUTEX_CMP_REQUEUE_PI" },
		{ 13, "FUTEX_LOCK_PI2" },
	};
	const char *s = lookup(t, NELEM(t), v & 127);

	/* FUTEX_PRIVATE_FLAG (128) joins the name, as in FUTEX_WAIT_PRIVATE;
	 * FUTEX_CLOCK_REALTIME (256) is a flag of its own. */
	if (!s) {
		sn_printf(b, "%#llx", (unsigned long long)v);
		return;
	}
	sn_puts(b, s);
	if (v & 128)
		sn_puts(b, "_PRIVATE");
	if (v & 256)
		sn_puts(b, "|FUTEX_CLOCK_REALTIME");
	if (v & ~(uint64_t)511)
		sn_printf(b, "|%#llx", (unsigned long long)(v & ~(uint64_t)511));
}

void sn_access(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" },
	};
	if (!FLAGS(b, t, v, 0))
		sn_puts(b, "F_OK");
}

/* ptrace requests: asm-generic's, then x86's (12-33), then the 0x42xx
 * ones of linux/ptrace.h. PEEKUSR and POKEUSR by libc's names, as strace
 * shows them. */
static const struct sn_name ptrace_reqs[] = {
	{ 0, "PTRACE_TRACEME" }, { 1, "PTRACE_PEEKTEXT" }, { 2, "PTRACE_PEEKDATA" },
	{ 3, "PTRACE_PEEKUSER" }, { 4, "PTRACE_POKETEXT" }, { 5, "PTRACE_POKEDATA" },
	{ 6, "PTRACE_POKEUSER" }, { 7, "PTRACE_CONT" }, { 8, "PTRACE_KILL" },
	{ 9, "PTRACE_SINGLESTEP" }, { 12, "PTRACE_GETREGS" }, { 13, "PTRACE_SETREGS" },
	{ 14, "PTRACE_GETFPREGS" }, { 15, "PTRACE_SETFPREGS" }, { 16, "PTRACE_ATTACH" },
	{ 17, "PTRACE_DETACH" }, { 18, "PTRACE_GETFPXREGS" }, { 19, "PTRACE_SETFPXREGS" },
	{ 21, "PTRACE_OLDSETOPTIONS" }, { 24, "PTRACE_SYSCALL" },
	{ 25, "PTRACE_GET_THREAD_AREA" }, { 26, "PTRACE_SET_THREAD_AREA" },
	{ 30, "PTRACE_ARCH_PRCTL" }, { 31, "PTRACE_SYSEMU" },
	{ 32, "PTRACE_SYSEMU_SINGLESTEP" }, { 33, "PTRACE_SINGLEBLOCK" },
	{ 0x4200, "PTRACE_SETOPTIONS" }, { 0x4201, "PTRACE_GETEVENTMSG" },
	{ 0x4202, "PTRACE_GETSIGINFO" }, { 0x4203, "PTRACE_SETSIGINFO" },
	{ 0x4204, "PTRACE_GETREGSET" }, { 0x4205, "PTRACE_SETREGSET" },
	{ 0x4206, "PTRACE_SEIZE" }, { 0x4207, "PTRACE_INTERRUPT" },
	{ 0x4208, "PTRACE_LISTEN" }, { 0x4209, "PTRACE_PEEKSIGINFO" },
	{ 0x420a, "PTRACE_GETSIGMASK" }, { 0x420b, "PTRACE_SETSIGMASK" },
	{ 0x420c, "PTRACE_SECCOMP_GET_FILTER" }, { 0x420d, "PTRACE_SECCOMP_GET_METADATA" },
	{ 0x420e, "PTRACE_GET_SYSCALL_INFO" }, { 0x420f, "PTRACE_GET_RSEQ_CONFIGURATION" },
	{ 0x4210, "PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG" },
	{ 0x4211, "PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG" },
	{ 0x4212, "PTRACE_SET_SYSCALL_INFO" },
};

const char *ptrace_name(uint64_t req)
{
	return lookup(ptrace_reqs, NELEM(ptrace_reqs), req);
}

void sn_ptrace(struct sn_buf *b, uint64_t v)
{
	VALUE(b, ptrace_reqs, v);
}

void sn_sighow(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "SIG_BLOCK" }, { 1, "SIG_UNBLOCK" }, { 2, "SIG_SETMASK" },
	};
	VALUE(b, t, v);
}

void sn_fcntl(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "F_DUPFD" }, { 1, "F_GETFD" }, { 2, "F_SETFD" },
		{ 3, "F_GETFL" }, { 4, "F_SETFL" }, { 5, "F_GETLK" },
		{ 6, "F_SETLK" }, { 7, "F_SETLKW" }, { 8, "F_SETOWN" },
		{ 9, "F_GETOWN" }, { 10, "F_SETSIG" }, { 11, "F_GETSIG" },
		{ 15, "F_SETOWN_EX" }, { 16, "F_GETOWN_EX" },
		{ 17, "F_GETOWNER_UIDS" }, { 36, "F_OFD_GETLK" },
		{ 37, "F_OFD_SETLK" }, { 38, "F_OFD_SETLKW" },
		{ 1024, "F_SETLEASE" }, { 1025, "F_GETLEASE" },
		{ 1026, "F_NOTIFY" }, { 1027, "F_DUPFD_QUERY" },
		{ 1028, "F_CREATED_QUERY" }, { 1029, "F_CANCELLK" },
		{ 1030, "F_DUPFD_CLOEXEC" }, { 1031, "F_SETPIPE_SZ" },
		{ 1032, "F_GETPIPE_SZ" }, { 1033, "F_ADD_SEALS" },
		{ 1034, "F_GET_SEALS" }, { 1035, "F_GET_RW_HINT" },
		{ 1036, "F_SET_RW_HINT" }, { 1037, "F_GET_FILE_RW_HINT" },
		{ 1038, "F_SET_FILE_RW_HINT" },
	};
	VALUE(b, t, v);
}

void sn_prctl(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 1, "PR_SET_PDEATHSIG" }, { 2, "PR_GET_PDEATHSIG" },
		{ 3, "PR_GET_DUMPABLE" }, { 4, "PR_SET_DUMPABLE" },
		{ 5, "PR_GET_UNALIGN" }, { 6, "PR_SET_UNALIGN" },
		{ 7, "PR_GET_KEEPCAPS" }, { 8, "PR_SET_KEEPCAPS" },
		{ 9, "PR_GET_FPEMU" }, { 10, "PR_SET_FPEMU" },
		{ 11, "PR_GET_FPEXC" }, { 12, "PR_SET_FPEXC" },
		{ 13, "PR_GET_TIMING" }, { 14, "PR_SET_TIMING" },
		{ 15, "PR_SET_NAME" }, { 16, "PR_GET_NAME" },
		{ 19, "PR_GET_ENDIAN" }, { 20, "PR_SET_ENDIAN" },
		{ 21, "PR_GET_SECCOMP" }, { 22, "PR_SET_SECCOMP" },
		{ 23, "PR_CAPBSET_READ" }, { 24, "PR_CAPBSET_DROP" },
		{ 25, "PR_GET_TSC" }, { 26, "PR_SET_TSC" },
		{ 27, "PR_GET_SECUREBITS" }, { 28, "PR_SET_SECUREBITS" },
		{ 29, "PR_SET_TIMERSLACK" }, { 30, "PR_GET_TIMERSLACK" },
		{ 31, "PR_TASK_PERF_EVENTS_DISABLE" },
		{ 32, "PR_TASK_PERF_EVENTS_ENABLE" },
		{ 33, "PR_MCE_KILL" }, { 34, "PR_MCE_KILL_GET" },
		{ 35, "PR_SET_MM" }, { 36, "PR_SET_CHILD_SUBREAPER" },
		{ 37, "PR_GET_CHILD_SUBREAPER" }, { 38, "PR_SET_NO_NEW_PRIVS" },
		{ 39, "PR_GET_NO_NEW_PRIVS" }, { 40, "PR_GET_TID_ADDRESS" },
		{ 41, "PR_SET_THP_DISABLE" }, { 42, "PR_GET_THP_DISABLE" },
		{ 45, "PR_SET_FP_MODE" }, { 46, "PR_GET_FP_MODE" },
		{ 47, "PR_CAP_AMBIENT" },
		{ 52, "PR_GET_SPECULATION_CTRL" }, { 53, "PR_SET_SPECULATION_CTRL" },
		{ 55, "PR_SET_TAGGED_ADDR_CTRL" }, { 56, "PR_GET_TAGGED_ADDR_CTRL" },
		{ 57, "PR_SET_IO_FLUSHER" }, { 58, "PR_GET_IO_FLUSHER" },
		{ 59, "PR_SET_SYSCALL_USER_DISPATCH" }, { 62, "PR_SCHED_CORE" },
		{ 65, "PR_SET_MDWE" }, { 66, "PR_GET_MDWE" },
		{ 67, "PR_SET_MEMORY_MERGE" }, { 68, "PR_GET_MEMORY_MERGE" },
		{ 74, "PR_GET_SHADOW_STACK_STATUS" },
		{ 75, "PR_SET_SHADOW_STACK_STATUS" },
		{ 76, "PR_LOCK_SHADOW_STACK_STATUS" },
		{ 77, "PR_TIMER_CREATE_RESTORE_IDS" }, { 78, "PR_FUTEX_HASH" },
		{ 0x53564d41, "PR_SET_VMA" },
	};
	VALUE(b, t, v);
}

void sn_ioctl(struct sn_buf *b, uint64_t v)
{
	/* The terminal requests most programs make; others print in hex. */
	static const struct sn_name t[] = {
		{ 0x5401, "TCGETS" }, { 0x5402, "TCSETS" }, { 0x5403, "TCSETSW" },
		{ 0x5404, "TCSETSF" }, { 0x5409, "TCSBRK" }, { 0x540a, "TCXONC" },
		{ 0x540b, "TCFLSH" }, { 0x540e, "TIOCSCTTY" },
		{ 0x540f, "TIOCGPGRP" }, { 0x5410, "TIOCSPGRP" },
		{ 0x5411, "TIOCOUTQ" }, { 0x5413, "TIOCGWINSZ" },
		{ 0x5414, "TIOCSWINSZ" }, { 0x541b, "FIONREAD" },
		{ 0x5421, "FIONBIO" }, { 0x5422, "TIOCNOTTY" },
		{ 0x5429, "TIOCGSID" }, { 0x5450, "FIONCLEX" },
		{ 0x5451, "FIOCLEX" }, { 0x5452, "FIOASYNC" },
		{ 0x80045430, "TIOCGPTN" }, { 0x40045431, "TIOCSPTLCK" },
		{ 0x802c542a, "TCGETS2" }, { 0x402c542b, "TCSETS2" },
		{ 0x5600, "VT_OPENQRY" }, { 0x5601, "VT_GETMODE" },
		{ 0x5602, "VT_SETMODE" }, { 0x5603, "VT_GETSTATE" },
		{ 0x5606, "VT_ACTIVATE" }, { 0x5607, "VT_WAITACTIVE" },
		{ 0x4b3a, "KDSETMODE" }, { 0x4b3b, "KDGETMODE" },
		{ 0x8912, "SIOCGIFCONF" }, { 0x8913, "SIOCGIFFLAGS" },
		{ 0x8914, "SIOCSIFFLAGS" }, { 0x8915, "SIOCGIFADDR" },
		{ 0x8921, "SIOCGIFMTU" }, { 0x8927, "SIOCGIFHWADDR" },
		{ 0x8933, "SIOCGIFINDEX" }, { 0x8940, "SIOCGIFBR" },
		{ 0x89a0, "SIOCBRADDBR" }, { 0x89a1, "SIOCBRDELBR" },
		{ 0x1260, "BLKGETSIZE" }, { 0x80081272, "BLKGETSIZE64" },
		{ 0x4c82, "LOOP_CTL_GET_FREE" },
	};
	const char *s = lookup(t, NELEM(t), v & 0xffffffff);

	if (s)
		sn_puts(b, s);
	else
		sn_printf(b, "%#llx", (unsigned long long)v);
}

void sn_mode(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0140000, "S_IFSOCK" }, { 0120000, "S_IFLNK" },
		{ 0100000, "S_IFREG" }, { 0060000, "S_IFBLK" },
		{ 0040000, "S_IFDIR" }, { 0020000, "S_IFCHR" },
		{ 0010000, "S_IFIFO" },
	};
	const char *s = lookup(t, NELEM(t), v & 0170000);

	if (s)
		sn_printf(b, "%s|%04llo", s, (unsigned long long)(v & 07777));
	else
		sn_printf(b, "%#llo", (unsigned long long)v);
}

static const struct sn_name pollev[] = {
	{ 0x1, "POLLIN" }, { 0x2, "POLLPRI" }, { 0x4, "POLLOUT" },
	{ 0x8, "POLLERR" }, { 0x10, "POLLHUP" }, { 0x20, "POLLNVAL" },
	{ 0x40, "POLLRDNORM" }, { 0x80, "POLLRDBAND" }, { 0x100, "POLLWRNORM" },
	{ 0x200, "POLLWRBAND" }, { 0x400, "POLLMSG" }, { 0x2000, "POLLRDHUP" },
};

void sn_pollev(struct sn_buf *b, uint64_t v)
{
	if (!FLAGS(b, pollev, v, 0))
		sn_putc(b, '0');
}

void sn_epollev(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0x1, "EPOLLIN" }, { 0x2, "EPOLLPRI" }, { 0x4, "EPOLLOUT" },
		{ 0x8, "EPOLLERR" }, { 0x10, "EPOLLHUP" }, { 0x20, "EPOLLNVAL" },
		{ 0x40, "EPOLLRDNORM" }, { 0x80, "EPOLLRDBAND" },
		{ 0x100, "EPOLLWRNORM" }, { 0x200, "EPOLLWRBAND" },
		{ 0x400, "EPOLLMSG" }, { 0x2000, "EPOLLRDHUP" },
		{ 1u << 28, "EPOLLEXCLUSIVE" }, { 1u << 29, "EPOLLWAKEUP" },
		{ 1u << 30, "EPOLLONESHOT" }, { 1u << 31, "EPOLLET" },
	};
	if (!FLAGS(b, t, v, 0))
		sn_putc(b, '0');
}

void sn_family(struct sn_buf *b, uint64_t v)
{
	static const struct sn_name t[] = {
		{ 0, "AF_UNSPEC" }, { 1, "AF_UNIX" }, { 2, "AF_INET" },
		{ 10, "AF_INET6" }, { 16, "AF_NETLINK" }, { 17, "AF_PACKET" },
		{ 38, "AF_ALG" }, { 40, "AF_VSOCK" },
	};
	VALUE(b, t, v);
}
