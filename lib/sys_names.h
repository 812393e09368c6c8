/* sys_names.h: names of the kernel's constants (errno values, signals,
 * flag bits, command codes), kept as data, and decoders that append them
 * as text. Values are the x86-64 kernel ABI, not this libc's headers. */
#ifndef REWIND_SYS_NAMES_H
#define REWIND_SYS_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* A text buffer appended to in place. It stays NUL-terminated; text past
 * its capacity is dropped and full is set. */
struct sn_buf {
	char *s;
	size_t len, cap;
	int full;
};

/* Start b empty on the cap bytes at s (cap >= 1). */
void sn_init(struct sn_buf *b, char *s, size_t cap);
void sn_puts(struct sn_buf *b, const char *s);
void sn_putc(struct sn_buf *b, char c);
void sn_printf(struct sn_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "ENOENT", or NULL for a number with no name. Includes the kernel's
 * restart codes (ERESTARTSYS...) that a tracer can see. */
const char *errno_name(int e);
/* "No such file or directory", or NULL. */
const char *errno_text(int e);
/* "SIGSEGV" for 1-31, or NULL (see sn_signal for real-time ones). */
const char *signal_name(int sig);
/* "PTRACE_SEIZE", or NULL for a request with no name. */
const char *ptrace_name(uint64_t req);

/* Each appends v's name or names. Flag sets print as A|B|0x40 (unknown
 * bits in hex); a value with no name prints as a number. */
void sn_errno(struct sn_buf *b, int e);		/* ENOENT or 1234 */
void sn_signal(struct sn_buf *b, int sig);	/* SIGSEGV, SIGRT_2, or 99 */
void sn_oflags(struct sn_buf *b, uint64_t v);	/* O_RDONLY|O_CLOEXEC */
void sn_atflags(struct sn_buf *b, uint64_t v);	/* AT_SYMLINK_NOFOLLOW */
void sn_atflags_access(struct sn_buf *b, uint64_t v); /* 0x200 is AT_EACCESS */
void sn_prot(struct sn_buf *b, uint64_t v);	/* PROT_READ|PROT_WRITE */
void sn_mflags(struct sn_buf *b, uint64_t v);	/* MAP_PRIVATE|MAP_ANONYMOUS */
void sn_madv(struct sn_buf *b, uint64_t v);	/* MADV_DONTNEED */
void sn_whence(struct sn_buf *b, uint64_t v);	/* SEEK_SET */
void sn_clock(struct sn_buf *b, uint64_t v);	/* CLOCK_MONOTONIC */
void sn_archprctl(struct sn_buf *b, uint64_t v); /* ARCH_SET_FS */
void sn_futexop(struct sn_buf *b, uint64_t v);	/* FUTEX_WAIT_PRIVATE */
void sn_access(struct sn_buf *b, uint64_t v);	/* R_OK|W_OK, F_OK */
void sn_ptrace(struct sn_buf *b, uint64_t v);	/* PTRACE_GET_SYSCALL_INFO */
void sn_sighow(struct sn_buf *b, uint64_t v);	/* SIG_BLOCK */
void sn_fcntl(struct sn_buf *b, uint64_t v);	/* F_SETFD */
void sn_prctl(struct sn_buf *b, uint64_t v);	/* PR_SET_NAME */
void sn_ioctl(struct sn_buf *b, uint64_t v);	/* TCGETS, else 0x5401 */
void sn_mode(struct sn_buf *b, uint64_t v);	/* S_IFREG|0644 */
void sn_pollev(struct sn_buf *b, uint64_t v);	/* POLLIN|POLLOUT */
void sn_epollev(struct sn_buf *b, uint64_t v);	/* EPOLLIN|EPOLLET */
void sn_family(struct sn_buf *b, uint64_t v);	/* AF_INET */

#endif
