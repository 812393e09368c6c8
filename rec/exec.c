/* exec.c: what an execve brings into the trace: the executable, its
 * interpreter, the initial stack, and the vDSO hidden then shown again. */
#include "count.h"
#include "dirty.h"
#include "events.h"
#include "exec.h"
#include "maps.h"
#include "rec.h"
#include "tracedir.h"
#include "tsc.h"
#include "util.h"
#include "vdso.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Where to read the ELF interpreter the kernel mapped at lo-hi (file
 * offset off) from. /proc/PID/map_files reaches the mapped file itself,
 * but only with CAP_SYS_ADMIN (or CAP_CHECKPOINT_RESTORE); an ordinary
 * user reads its path instead, after checking that the file there holds
 * the bytes mapped (the first page carries the ELF headers and build id),
 * so a loader replaced since the execve is never taken for the one that
 * ran. */
static const char *interp_src(unsigned long lo, unsigned long hi, unsigned long off,
			      const char *name)
{
	static char src[128];
	char mem[4096], file[4096];
	snprintf(src, sizeof src, "/proc/%d/map_files/%lx-%lx", cur->p.pid, lo, hi);
	if (access(src, R_OK) == 0)
		return src;
	size_t n = hi - lo < sizeof mem ? hi - lo : sizeof mem;
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, file, n, off);
	if (fd >= 0)
		close(fd);
	if (fd < 0)
		die(EXIT_TRACE, "%s: %s", name, strerror(errno));
	if (got != (ssize_t)n || pt_read(&cur->p, lo, mem, n) != (ssize_t)n || memcmp(mem, file, n))
		die(EXIT_TRACE, "%s: changed since the program started (and %s cannot be read "
		    "without CAP_SYS_ADMIN)", name, src);
	return name;
}

void record_exec(struct user_regs_struct *regs)
{
	char src[64], path[4096];
	pt_reopen_mem(&cur->p);
	dirty_forget(cur->tgid);
	snprintf(src, sizeof src, "/proc/%d/exe", cur->p.pid);
	ssize_t n = readlink(src, path, sizeof path - 1);
	if (n < 0)
		die(EXIT_TRACE, "%s: %s", src, strerror(errno));
	path[n] = 0;
	store_file(&R, src, NULL, path, IF_EXE, 0, 0);

	/* maps names a deleted file (a memfd) without its " (deleted)". */
	char mapname[4096];
	snprintf(mapname, sizeof mapname, "%s", path);
	if (n > 10 && !strcmp(mapname + n - 10, " (deleted)"))
		mapname[n - 10] = 0;
	char mpath[64];
	uint64_t stack_top = 0;
	int have_interp = 0;
	snprintf(mpath, sizeof mpath, "/proc/%d/maps", cur->p.pid);
	/* Read once for here and count_exec's scan below (29 us a read). */
	maps_keep(cur->p.pid);
	FILE *f = maps_open(cur->p.pid);
	if (!f)
		die(EXIT_TRACE, "%s: %s", mpath, strerror(errno));
	struct maps_line m;
	while (maps_next(f, &m)) {
		if (!strcmp(m.name, "[stack]"))
			stack_top = m.hi;
		else if (m.name[0] == '/' && strcmp(m.name, mapname) && !have_interp) {
			store_file(&R, interp_src(m.lo, m.hi, m.off, m.name), NULL, m.name, IF_INTERP, 0, 0);
			have_interp = 1;
		}
	}
	fclose(f);
	if (!stack_top)
		die(EXIT_TRACE, "%s: no [stack] mapping", mpath);

	/* Hide AT_SYSINFO_EHDR: walk argc, argv, envp to the auxv, in a
	 * copy of the stack read at once (a read a word costs a syscall). */
	uint64_t sp = regs->rsp;
	size_t len = stack_top - sp;
	uint8_t *stack = xmalloc(len);
	if (len < 8 || (len & 7) || pt_read(&cur->p, sp, stack, len) != (ssize_t)len)
		die(EXIT_TRACE, "cannot read the initial stack");
	uint64_t *w = (uint64_t *)stack, nw = len / 8;
	uint64_t i = w[0] + 2;	/* past argc, argv and its NULL */
	while (i < nw && w[i])
		i++;
	for (i++; i + 1 < nw && w[i] != AT_NULL; i += 2)
		if (w[i] == AT_SYSINFO_EHDR) {
			uint64_t ign = AT_IGNORE, a = sp + 8 * i;
			pt_write(&cur->p, a, &ign, 8);
			w[i] = ign;	/* the stack recorded as the program has it */
			cur->vdso_slot = a;	/* shown again by vdso_show() */
			cur->vdso = w[i + 1];
		}
	tw_item(&R.w, IT_REGS, 0, regs, sizeof *regs, NULL, 0);
	tw_item(&R.w, IT_STACK, 0, &sp, 8, stack, len);
	free(stack);
	if (tsc_exec(&cur->p, cur->tgid, path) < 0)
		stop_recording(EXIT_TRACE, "cannot make CPUID fault again after the execve of %s "
			       "(arch_prctl ARCH_SET_CPUID): %s; the trace %s ends before it",
			       path, strerror(errno), R.dir);
	count_exec(&cur->p, cur->tgid, cur->p.pid, path);
	maps_drop();
}

/* At the first syscall after an exec, the dynamic loader (or a static
 * libc) has read the auxiliary vector without the vDSO, so libc's clocks
 * make syscalls. A program that looks the vDSO up itself finds it again,
 * its functions made into syscalls too. The changed bytes are the call's
 * outputs, so replay makes them the same. */
void vdso_show(void)
{
	uint64_t slot = cur->vdso_slot, val[2] = { AT_SYSINFO_EHDR, cur->vdso };
	cur->vdso_slot = 0;
	struct maps_line m;
	if (maps_at_named(cur->p.pid, cur->vdso, &m) != 1 || strcmp(m.name, "[vdso]"))
		return;		/* unmapped or moved: it stays hidden */
	uint64_t lo = m.lo, hi = m.hi;
	if (lo != cur->vdso || hi <= lo || hi - lo > (1 << 20))
		return;
	if (vdso_patch(&cur->p, lo, hi - lo, item_mem, NULL) >= 0 &&
	    pt_write(&cur->p, slot, val, 16) == 0)
		tw_item(&R.w, IT_MEM, 0, &slot, 8, val, 16);
}
