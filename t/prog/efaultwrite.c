/* efaultwrite.c: write and pwrite to a regular file (calls the syscall
 * buffer logs) from a PROT_NONE page: EFAULT; then from readable memory.
 * Prints each answer and a random token. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("efaultwrite.file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (none == MAP_FAILED || fd < 0)
		return 1;
	for (int i = 0; i < 3; i++) {
		errno = 0;
		long r = write(fd, none, 100);
		printf("write: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
		errno = 0;
		r = pwrite(fd, none + 8, 50, 7);
		printf("pwrite: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
	}
	char buf[32];
	int n = snprintf(buf, sizeof buf, "token %u\n", token);
	printf("write: %ld\n", (long)write(fd, buf, n));
	printf("pread: %ld\n", (long)pread(fd, buf, sizeof buf, 0));
	unlink("efaultwrite.file");
	printf("token %u\n", token);
	return 0;
}
