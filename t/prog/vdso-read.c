/* vdso-read.c: finds the vDSO itself (getauxval(AT_SYSINFO_EHDR)), looks
 * its functions up in its dynamic symbols and calls them: the clock, the
 * time and the CPU, printed (they differ run to run). */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

static const Elf64_Ehdr *eh;

static void *sym(const char *want)
{
	const uint8_t *base = (const uint8_t *)eh;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		const Elf64_Sym *s = (const Elf64_Sym *)(base + sh[i].sh_offset);
		const char *str = (const char *)base + sh[sh[i].sh_link].sh_offset;
		for (size_t k = 0; k < sh[i].sh_size / sizeof *s; k++)
			if (s[k].st_value && !strcmp(str + s[k].st_name, want))
				return (void *)(base + s[k].st_value);
	}
	return NULL;
}

int main(void)
{
	eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	if (!eh) {
		printf("no vDSO\n");
		return 1;
	}
	printf("vDSO %s\n", memcmp(eh->e_ident, ELFMAG, SELFMAG) ? "garbage" : "is an ELF image");
	int (*cgt)(clockid_t, struct timespec *) = sym("__vdso_clock_gettime");
	long (*tm)(long *) = sym("__vdso_time");
	long (*gcpu)(unsigned *, unsigned *, void *) = sym("__vdso_getcpu");
	struct timespec ts = { 0, 0 };
	int rc = cgt ? cgt(CLOCK_MONOTONIC, &ts) : -99;
	printf("clock_gettime = %d: %ld.%09ld\n", rc, (long)ts.tv_sec, ts.tv_nsec);
	long t = 0, r = tm ? tm(&t) : -99;
	printf("time = %s\n", r == t && r > 1000000000 ? "now" : "wrong");
	unsigned cpu = 999;
	rc = gcpu ? (int)gcpu(&cpu, NULL, NULL) : -99;
	printf("getcpu = %d: %s\n", rc, cpu < 999 ? "a cpu" : "none");
	return 0;
}
