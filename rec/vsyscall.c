/* vsyscall.c: rec makes a call through the legacy vsyscall page itself,
 * at its entry stop, since the kernel's emulation of it ends with no
 * syscall-exit stop (see vsyscall.h). */
#include "vsyscall.h"

#include <errno.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int vsyscall_at(uint64_t rip)
{
	return (rip & ~0xfffull) == 0xffffffffff600000ull;
}

int vsyscall_has(long nr)
{
	return nr == SYS_gettimeofday || nr == SYS_time || nr == SYS_getcpu;
}

/* Write len bytes at addr (none for a null pointer) and give them to
 * out; -1 if they do not go. */
static int put(struct pt_proc *p, uint64_t addr, const void *b, size_t len,
	       void (*out)(void *, uint64_t, const void *, size_t), void *ctx)
{
	if (!addr)
		return 0;
	if (pt_write(p, addr, b, len) < 0)
		return -1;
	out(ctx, addr, b, len);
	return 0;
}

int64_t vsyscall_make(struct pt_proc *p, long nr, const uint64_t a[6],
		      void (*out)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	int64_t ret;
	int bad;
	if (nr == SYS_gettimeofday) {
		struct timeval tv;
		struct timezone tz;
		ret = syscall(SYS_gettimeofday, &tv, &tz);
		bad = put(p, a[0], &tv, sizeof tv, out, ctx) < 0 || put(p, a[1], &tz, sizeof tz, out, ctx) < 0;
	} else if (nr == SYS_time) {
		int64_t t = syscall(SYS_time, NULL);
		ret = t;
		bad = put(p, a[0], &t, sizeof t, out, ctx) < 0;
	} else {	/* getcpu */
		unsigned cpu = 0, node = 0;
		ret = syscall(SYS_getcpu, &cpu, &node, NULL);
		bad = put(p, a[0], &cpu, sizeof cpu, out, ctx) < 0 ||
		      put(p, a[1], &node, sizeof node, out, ctx) < 0;
	}
	if (ret < 0)
		ret = -errno;
	return bad ? -EFAULT : ret;
}
