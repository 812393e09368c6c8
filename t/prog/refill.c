/* refill.c: madvise(MADV_DONTNEED) and a growing mremap on a private file
 * mapping refill it from the file (random content, so runs differ). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	char path[] = "refillXXXXXX", buf[8192];
	int fd = mkstemp(path);
	if (getrandom(buf, sizeof buf, 0) != sizeof buf)
		return 1;
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = 'a' + (unsigned char)buf[i] % 26;
	if (fd < 0 || write(fd, buf, sizeof buf) != sizeof buf)
		return 1;
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	memset(m, 'Z', 16);
	printf("written  %.16s\n", m);
	madvise(m, 4096, MADV_DONTNEED);
	printf("refilled %.16s\n", m);
	char *g = mremap(m, 4096, 8192, MREMAP_MAYMOVE);
	printf("grown    %.16s\n", g + 4096);
	unlink(path);
	return 0;
}
