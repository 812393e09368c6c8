/* vsyscall.c: rec makes a call through the legacy vsyscall page itself,
 * at its entry stop, since the kernel's emulation of it ends with no
 * syscall-exit stop (see vsyscall.h). */
#include "vsyscall.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int vsyscall_at(uint64_t rip)
{
	return (rip & ~0xfffull) == 0xffffffffff600000ull;
}

/* Write len bytes at addr into o (none for a null pointer); -1 if they
 * do not go. */
static int put(struct pt_proc *p, uint64_t addr, const void *b, size_t len, struct vsys_out *o)
{
	o->len = 0;
	if (!addr)
		return 0;
	if (pt_write(p, addr, b, len) < 0)
		return -1;
	o->addr = addr;
	o->len = len;
	memcpy(o->b, b, len);
	return 0;
}

int64_t vsyscall_make(struct pt_proc *p, long nr, const uint64_t a[6], struct vsys_out out[2])
{
	int64_t ret;
	int bad;
	out[1].len = 0;
	if (nr == SYS_gettimeofday) {
		struct timeval tv;
		struct timezone tz;
		ret = syscall(SYS_gettimeofday, &tv, &tz);
		bad = put(p, a[0], &tv, sizeof tv, &out[0]) < 0 || put(p, a[1], &tz, sizeof tz, &out[1]) < 0;
	} else if (nr == SYS_time) {
		int64_t t = syscall(SYS_time, NULL);
		ret = t;
		bad = put(p, a[0], &t, sizeof t, &out[0]) < 0;
	} else if (nr == SYS_getcpu) {
		unsigned cpu = 0, node = 0;
		ret = syscall(SYS_getcpu, &cpu, &node, NULL);
		bad = put(p, a[0], &cpu, sizeof cpu, &out[0]) < 0 ||
		      put(p, a[1], &node, sizeof node, &out[1]) < 0;
	} else {
		out[0].len = 0;
		return 1;
	}
	if (ret < 0)
		ret = -errno;
	return bad ? -EFAULT : ret;
}
