/* shmap-outside.c: maps the file named by argv[1] MAP_SHARED, creates
 * argv[1].ready, and waits (sleeping, up to 10 s) until something outside
 * writes a non-zero byte at its start; prints what came and a random
 * token of its own. It sleeps before it looks, so that a write made while
 * it sleeps is seen after a system call (where rec notices it). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char ready[4200];
	unsigned r;
	getrandom(&r, sizeof r, 0);
	int fd = argc > 1 ? open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600) : -1;
	if (fd < 0 || ftruncate(fd, 4096) < 0)
		return perror("open"), 2;
	volatile char *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 2;
	snprintf(ready, sizeof ready, "%s.ready", argv[1]);
	close(open(ready, O_WRONLY | O_CREAT, 0600));
	struct timespec ts = { 0, 50000000 };
	for (int i = 0; i < 200; i++) {
		nanosleep(&ts, NULL);
		if (m[0])
			break;
	}
	printf("token %08x, outside wrote \"%.8s\"\n", r, (const char *)m);
	return !m[0];
}
