/* shared-fds.c: a file mapped MAP_SHARED read-only, then written through
 * a descriptor opened before the mapping, one opened after it, and one a
 * forked child inherited; meanwhile 200 writes go to another file. The
 * mapping shows each change (random bytes, so runs differ). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static int put(int fd, off_t at)
{
	unsigned r;
	char buf[16];
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return -1;
	int n = snprintf(buf, sizeof buf, "%08x", r);
	return pwrite(fd, buf, n, at) == n ? 0 : -1;
}

int main(void)
{
	int before = open("mapped", O_RDWR | O_CREAT | O_TRUNC, 0600);
	int other = open("other", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (before < 0 || other < 0 || ftruncate(before, 4096) < 0)
		return 1;
	int ro = open("mapped", O_RDONLY);
	char *m = ro < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	if (m == MAP_FAILED)
		return 1;
	for (int i = 0; i < 200; i++)
		if (write(other, "line of the other file\n", 23) != 23)
			return 1;
	if (put(before, 100) < 0)
		return 1;
	printf("through the earlier descriptor: %.8s\n", m + 100);
	int after = open("mapped", O_WRONLY);
	if (after < 0 || put(after, 200) < 0)
		return 1;
	printf("through a later descriptor: %.8s\n", m + 200);
	pid_t pid = fork();
	if (pid == 0)
		_exit(put(before, 300) < 0);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
		return 1;
	printf("through the child's descriptor: %.8s\n", m + 300);
	char back[24] = "";
	if (pread(open("other", O_RDONLY), back, 23, 199 * 23) != 23)
		return 1;
	printf("the other file ends: %s", back);
	return 0;
}
