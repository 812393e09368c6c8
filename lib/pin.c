/* pin.c: the tracer's thread and its tracees on one CPU, hidden from the
 * program's sched_getaffinity (see pin.h). */
#include "pin.h"
#include "util.h"

#include <sched.h>
#include <string.h>
#include <sys/syscall.h>

static int cpu = -1;		/* the chosen CPU, or -1: no pin */
static cpu_set_t before;	/* the CPUs allowed before the pin */

static int alone = -1;	/* the one CPU allowed, when so */

void pin_choose(int prefer)
{
	cpu = alone = -1;
	if (sched_getaffinity(0, sizeof before, &before) < 0)
		return;
	if (CPU_COUNT(&before) == 1)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &before))
				alone = c;
	if (env_flag("REWIND_NO_PIN") || CPU_COUNT(&before) < 2)
		return;
	int c = prefer >= 0 && prefer < CPU_SETSIZE && CPU_ISSET(prefer, &before) ? prefer :
		sched_getcpu();
	if (c >= 0 && c < CPU_SETSIZE && CPU_ISSET(c, &before))
		cpu = c;
}

int pin_cpu(void)
{
	return cpu >= 0 ? cpu : alone;
}

void pin_self(void)
{
	cpu_set_t one;
	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof one, &one);	/* a failure costs only speed */
}

void pin_anywhere(void)
{
	if (cpu >= 0)
		sched_setaffinity(0, sizeof before, &before);
}

void pin_before(struct pt_proc *p, long nr, const uint64_t a[6])
{
	uint32_t policy;
	if (nr == SYS_sched_setattr && cpu >= 0 && a[1] && pt_read(p, a[1] + 4, &policy, 4) == 4 &&
	    policy == 6 /* SCHED_DEADLINE */)
		sched_setaffinity((pid_t)a[0] ? (pid_t)a[0] : p->pid, sizeof before, &before);
}

void pin_after(struct pt_proc *p, long nr, const uint64_t a[6], int64_t ret)
{
	static int own;		/* the program set an affinity */
	uint8_t got[sizeof(cpu_set_t)], one[sizeof(cpu_set_t)];
	if (nr == SYS_sched_setaffinity && ret == 0)
		own = 1;
	if (nr != SYS_sched_getaffinity || cpu < 0 || own || ret <= 0 || ret > (int64_t)sizeof got ||
	    pt_read(p, a[2], got, ret) != ret)
		return;
	memset(one, 0, sizeof one);
	one[cpu / 8] = 1 << cpu % 8;
	if (cpu / 8 < ret && !memcmp(got, one, ret))
		pt_write(p, a[2], &before, ret);
}
