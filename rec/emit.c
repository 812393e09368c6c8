/* emit.c: the bytes a call sends to rec's stdout or stderr, kept in the
 * trace so that replay prints them again. */
#include "cap.h"
#include "emit.h"
#include "events.h"
#include "outs.h"
#include "rec.h"
#include "sys.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 1 or 2 when the program's fd is rec's stdout or stderr, else 0. */
int out_kind(uint64_t fd)
{
	int k = outs_kind(cur->p.pid, fd);
	if (k < 0)
		stop_recording(EXIT_TRACE, "cannot tell where descriptor %d of process %d goes: "
			       "/proc/%d/fd/%d: %s (a process that is not dumpable is recorded "
			       "by root only); the trace %s ends before it",
			       (int)fd, cur->p.pid, cur->p.pid, (int)fd, strerror(-k), R.dir);
	return k;
}

/* Where the ret bytes a copying call (sendfile, copy_file_range) took
 * from a regular file began: *offp after the call, or the file position,
 * minus ret. Returns -1 if the source cannot be read again. */
static int64_t copied_from(uint64_t fd, uint64_t offp, int64_t ret)
{
	int64_t pos = -1;
	if (offp) {
		if (pt_read(&cur->p, offp, &pos, 8) != 8)
			return -1;
		return pos - ret;
	}
	pos = pt_fdinfo(cur->p.pid, fd, "pos:", 10);
	return pos < 0 ? -1 : pos - ret;
}

/* For a call that sends data to an fd: which argument is the
 * destination (the return value), and for copies the source fd and its
 * offset pointer; -1 for other calls. */
static int out_arg(long nr, int *in, int *offp)
{
	*in = *offp = -1;
	if (nr == SYS_copy_file_range)
		return *in = 0, *offp = 1, 2;
	if (nr == SYS_sendfile)
		return *in = 1, *offp = 2, 0;
	if (nr == SYS_splice)	/* from a file: read again; from a pipe: gone */
		return *in = 0, *offp = 1, 2;
	if (nr == SYS_tee)
		return 1;
	if (nr == SYS_write || nr == SYS_pwrite64 || nr == SYS_sendto || nr == SYS_sendmsg ||
	    nr == SYS_writev || nr == SYS_pwritev || nr == SYS_pwritev2)
		return 0;
	return -1;
}

/* 1 or 2 when the call cur enters sends data to rec's stdout or stderr. */
int out_call(long nr, const uint64_t a[6])
{
	int in, offp, out = out_arg(nr, &in, &offp);
	return out < 0 ? 0 : out_kind(a[out]);
}

/* What a write-family call sent to rec's stdout or stderr, kept so that
 * replay can print it again: bytes the call took from the program's
 * memory by length and hash only (IT_EMITSUM: replay reads them where
 * the program has them again), bytes it took from a file whole
 * (IT_EMIT). */
void emit_writes(long nr, const uint64_t a[6], int64_t ret, int k)
{
	int in, offp, out = out_arg(nr, &in, &offp);
	if (out < 0 || ret <= 0 || !k)
		return;
	uint8_t *buf = xmalloc(ret);
	ssize_t n = cap_sent(&cur->p, nr, a, buf, ret);
	int mem = n >= 0;	/* the bytes were in the program's memory */
	if (!mem && in >= 0) {
		int64_t from = copied_from(a[in], a[offp], ret);
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/fd/%d", cur->p.pid, (int)a[in]);
		int fd = from < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = pread(fd, buf, ret, from);
			close(fd);
		}
	}
	if (n != ret) {
		const struct sys_entry *e = sys_lookup(nr);
		stop_recording(EXIT_TRACE, "the program sent data to %s with %s, whose bytes rewind "
		    "cannot recover; the trace %s ends before it", k == 1 ? "stdout" : "stderr",
		    e ? e->name : "?", R.dir);
	}
	if (mem) {
		uint64_t sum[2] = { (uint64_t)n, hash_final(hash_update(HASH_INIT, buf, n), n) };
		tw_item(&R.w, IT_EMITSUM, k, sum, sizeof sum, NULL, 0);
	} else {
		tw_item(&R.w, IT_EMIT, k, NULL, 0, buf, n);
	}
	free(buf);
}
