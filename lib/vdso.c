/* vdso.c: turns the vDSO's functions into system calls (see vdso.h): rec
 * records the bytes written, a checkpoint restored into a fresh process
 * writes them again. */
#include "vdso.h"
#include "util.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

/* The functions, and the call each becomes (a negative one: that error). */
static const struct { const char *name; int nr; } calls[] = {
	{ "clock_gettime", SYS_clock_gettime }, { "__vdso_clock_gettime", SYS_clock_gettime },
	{ "gettimeofday", SYS_gettimeofday }, { "__vdso_gettimeofday", SYS_gettimeofday },
	{ "time", SYS_time }, { "__vdso_time", SYS_time },
	{ "getcpu", SYS_getcpu }, { "__vdso_getcpu", SYS_getcpu },
	{ "clock_getres", SYS_clock_getres }, { "__vdso_clock_getres", SYS_clock_getres },
	{ "getrandom", -ENOSYS }, { "__vdso_getrandom", -ENOSYS },
};

/* The 8-byte stub of call nr: mov $nr, %eax; syscall; ret, or for an
 * error mov $nr, %rax; ret. */
static void stub(int nr, uint8_t s[8])
{
	const uint8_t sys[8] = { 0xb8, nr, nr >> 8, 0, 0, 0x0f, 0x05, 0xc3 };
	const uint8_t err[8] = { 0x48, 0xc7, 0xc0, nr, nr >> 8, 0xff, 0xff, 0xc3 };
	memcpy(s, nr < 0 ? err : sys, 8);
}

/* Patch the functions named in calls through the dynamic symbols of the
 * image img (a copy of the len bytes at base). */
static int patch(struct pt_proc *p, uint64_t base, const uint8_t *img, size_t len,
		 void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	Elf64_Ehdr eh;
	int n = 0;
	memcpy(&eh, img, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len)
		return -1;
	for (int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, str;
		memcpy(&sh, img + eh.e_shoff + i * sizeof sh, sizeof sh);
		if (sh.sh_type != SHT_DYNSYM || sh.sh_link >= eh.e_shnum)
			continue;
		memcpy(&str, img + eh.e_shoff + sh.sh_link * sizeof str, sizeof str);
		if (sh.sh_offset + sh.sh_size > len || str.sh_offset + str.sh_size > len)
			return -1;
		for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;
			memcpy(&sym, img + sh.sh_offset + k * sizeof sym, sizeof sym);
			if (sym.st_name >= str.sh_size || !sym.st_value || sym.st_value + 8 > len)
				continue;
			const char *name = (const char *)img + str.sh_offset + sym.st_name;
			size_t room = str.sh_size - sym.st_name;
			for (size_t c = 0; c < sizeof calls / sizeof *calls; c++) {
				uint8_t s[8];
				uint64_t at = base + sym.st_value;
				if (strncmp(name, calls[c].name, room))
					continue;
				stub(calls[c].nr, s);
				if (pt_write(p, at, s, 8) < 0)
					continue;
				if (fn)
					fn(ctx, at, s, 8);
				n++;
			}
		}
	}
	return n;
}

int vdso_patch(struct pt_proc *p, uint64_t base, size_t len,
	       void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	if (len < sizeof(Elf64_Ehdr) || len > (1 << 20))
		return -1;
	uint8_t *img = xmalloc(len);
	int n = pt_read(p, base, img, len) == (ssize_t)len ? patch(p, base, img, len, fn, ctx) : -1;
	free(img);
	return n;
}
