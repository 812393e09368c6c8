/* shared-write.c: a file mapped MAP_SHARED, then changed with write(2) and
 * ftruncate: the mapping shows the new bytes (random, so runs differ). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	char path[] = "sharedXXXXXX", buf[16];
	int fd = mkstemp(path);
	unsigned r;
	getrandom(&r, sizeof r, 0);
	if (fd < 0 || ftruncate(fd, 4096) < 0)
		return 1;
	char *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	int n = snprintf(buf, sizeof buf, "%08x", r);
	if (pwrite(fd, buf, n, 100) != n)
		return 1;
	printf("mapped after pwrite: %.8s\n", m + 100);
	if (ftruncate(fd, 0) < 0 || ftruncate(fd, 4096) < 0)
		return 1;
	printf("mapped after truncate: %d\n", m[100]);
	unlink(path);
	return 0;
}
