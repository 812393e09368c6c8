/* cap.h: what a syscall reads from and writes to user memory, derived
 * from the syscall table's argument kinds. rec saves it; replay checks the
 * inputs and writes the outputs back. */
#ifndef REWIND_CAP_H
#define REWIND_CAP_H

#include <stdint.h>
#include "pt.h"
#include "sys.h"
#include "trace.h"

#define CAP_STR_MAX 4096	/* longest string argument saved */
#define CAP_STRV_MAX (256 * 1024)	/* most bytes of an argv/envp saved */

/* Calls fn once for each input argument of e: the argument index, its
 * full length, and the bytes saved (whole strings; a prefix of buffers). */
void cap_inputs(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6],
		void (*fn)(void *ctx, int arg, uint64_t full, const void *data, size_t len),
		void *ctx);

/* How many of the n bytes saved of a sockaddr passed with length addrlen
 * the kernel reads as the address: AF_UNIX up to the path's NUL (an
 * abstract name: all addrlen bytes), AF_INET and AF_INET6 their struct,
 * other families addrlen; never more than n or addrlen. Replay compares
 * these and leaves the rest (stale stack in glibc's sockaddr_un). */
size_t cap_sockaddr_len(const uint8_t *sa, size_t n, uint64_t addrlen);

/* Calls fn for each stretch of user memory the call may have written,
 * with its current contents, after the call returned ret. */
void cap_outputs(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6], int64_t ret,
		 void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx);

/* Calls fn for each stretch of user memory the call may write, whatever
 * its result, with data NULL (its contents are not read): while it runs,
 * the kernel may have written them or not. */
void cap_output_ranges(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6],
		       void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx);

/* Why a call of the process p that returned ret wrote what cap_outputs
 * cannot say (an ioctl, fcntl or quotactl request it does not know, an
 * ethtool command), or NULL. */
const char *cap_unknown(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6], int64_t ret);

/* Why a call with these arguments cannot be recorded even before it
 * runs (seccomp's strict mode, which cannot stack on rec's filter, and
 * user notification listeners), or NULL. */
const char *cap_refusal(const struct sys_entry *e, const uint64_t a[6]);

/* Gather up to max bytes of the iovec array at iov (cnt entries) into out;
 * returns the bytes gathered, *full the total length of the array. */
size_t cap_gather_iov(struct pt_proc *p, uint64_t iov, uint64_t cnt, uint8_t *out, size_t max,
		      uint64_t *full);

/* The n bytes a write-family call (write, pwrite64, sendto, writev,
 * pwritev, pwritev2; arguments a) sent from p's memory, read into buf:
 * n, or less when they cannot be read; -1 for another call. */
ssize_t cap_sent(struct pt_proc *p, long nr, const uint64_t a[6], uint8_t *buf, size_t n);

/* Whether call nr (arguments a) of p is an rt_sigaction that sets an
 * action without asking for the old one, with arguments the kernel
 * takes: it returns 0 and writes nothing, so it needs no stop at its
 * end. posix_spawn's child resets every handler this way. */
int cap_sure_sigaction(struct pt_proc *p, long nr, const uint64_t a[6]);

/* True for the kernel's internal restart codes (-ERESTARTSYS...). */
int cap_is_restart(int64_t ret);

#endif
