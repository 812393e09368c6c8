/* util.h: small helpers every tool shares: error exits, hashing, and
 * where traces live by default. */
#ifndef REWIND_UTIL_H
#define REWIND_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Exit statuses shared by the tools (see each man page, EXIT STATUS). */
#define EXIT_USAGE 2
#define EXIT_TRACE 125	/* bad trace, divergence, or internal failure */

extern const char *progname;

/* Print "progname: message" (printf-style) and exit with status. */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Print "progname: message" and go on. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Incremental 64-bit content hash (not cryptographic): start with
 * HASH_INIT, feed bytes, finish. Used to name and check files/. */
#define HASH_INIT 0x9e3779b97f4a7c15ull
uint64_t hash_update(uint64_t h, const void *p, size_t n);
uint64_t hash_final(uint64_t h, uint64_t total_len);
/* One 8-byte word w fed to the hash h. */
uint64_t hash_word(uint64_t h, uint64_t w);
/* Hash of a whole file, or -1 with errno set. *size gets its length. A
 * file of more than HASH_PIECES_MIN bytes is hashed by pieces of
 * HASH_PIECE bytes (the hash of each piece fed as one word), so that
 * its holes need not be read (rewind-trace(5)). */
#define HASH_PIECES_MIN (1ull << 30)
#define HASH_PIECE (1 << 20)
int hash_file(const char *path, uint64_t *hash, uint64_t *size);

/* Clock c (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID...) in ns, read by the
 * syscall: the vDSO's rdtsc would fault in a tracer that traps it
 * (tscshare.h), and be run there by a signal handler at twice the cost. */
uint64_t clock_ns(clockid_t c);
/* CLOCK_MONOTONIC in seconds, by clock_ns. */
double mono_s(void);
/* The same of the file open at fd, read from its offset 0 (by pieces)
 * or from where it is (a file no larger). */
int hash_fd(int fd, uint64_t *hash, uint64_t *size);

/* The directory traces go in by default:
 * ${REWIND_DIR:-$HOME/.local/share/rewind}. Returns a static buffer. */
const char *trace_home(void);
/* The trace a tool should read: arg if given, else trace_home()/latest-trace.
 * Returns a static buffer. Without arg, dies (status 125) saying so when
 * there is no latest-trace, or it points to a trace that is gone. */
const char *trace_pick(const char *arg);

/* Whether environment variable name is set to anything but "" or "0":
 * how every REWIND_NO_* switch is read. */
int env_flag(const char *name);

/* From now on SIGINT (^C) removes tmpdir (if not NULL; its files, then
 * itself) and exits 130 at once; the tracees die with the tracer
 * (PTRACE_O_EXITKILL). For replay, tseek and the like. */
void exit_on_sigint(const char *tmpdir);

/* A tool's usage message and exit: with status 0 the usage line and the
 * help on stdout, else the usage line alone on stderr. */
void usage_exit(int status, const char *usage_line, const char *help)
	__attribute__((noreturn));

/* Parse a non-negative decimal number; -1 if it is not one. */
long long parse_num(const char *s);

/* write() all of buf, retrying after short writes. 0 or -1. */
int write_all(int fd, const void *buf, size_t n);

/* The CPU's vendor, model name and feature flags, one per line, as
 * /proc/cpuinfo gives them for the first CPU. */
void cpu_desc(char *buf, size_t len);

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
