/* jit.c: runs rdtsc from code it writes at run time. Default: written
 * into a read-write mapping that is then made executable (rewind patches
 * it at the mprotect); "rwx": written into a mapping that was executable
 * from the start (rewind cannot see it: the known hole). Prints the value,
 * which differs on every run. "shared FILE": maps FILE MAP_SHARED and
 * executable (rewind must not patch it) and prints its first bytes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rwx = argc > 1 && !strcmp(argv[1], "rwx");
	if (argc > 2 && !strcmp(argv[1], "shared")) {
		int fd = open(argv[2], O_RDONLY);
		off_t len = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
		uint8_t *f = len <= 0 ? MAP_FAILED
				      : mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
		if (f == MAP_FAILED)
			return 1;
		printf("mapped %lld bytes: %02x %02x %02x %02x\n", (long long)len, f[0], f[1], f[2], f[3]);
		return 0;
	}
	static const uint8_t code[] = { 0x0f, 0x31, 0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09,
					0xd0, 0xc3 };	/* rdtsc; shl $32,%rdx; or %rdx,%rax; ret */
	uint8_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | (rwx ? PROT_EXEC : 0),
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	memcpy(m, code, sizeof code);
	if (!rwx && mprotect(m, 4096, PROT_READ | PROT_EXEC) < 0)
		return 1;
	uint64_t (*fn)(void) = (uint64_t (*)(void))m;
	printf("jit tsc %llu\n", (unsigned long long)fn());
	return 0;
}
