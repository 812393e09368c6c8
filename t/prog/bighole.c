/* bighole.c: maps a 100 GB sparse file (and, with "anon", a 100 GB
 * anonymous mapping), says so, then waits for a signal. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 100ull << 30;
	int fd = open("bighole.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink("bighole.dat");
	if (fd < 0 || ftruncate(fd, len) < 0) {
		perror("bighole.dat");
		return 1;
	}
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("mapped %s\n", p == MAP_FAILED ? "failed" : "ok");
	if (argc > 1 && !strcmp(argv[1], "anon")) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);
		printf("anon %s\n", p == MAP_FAILED ? "failed" : "ok");
	}
	fflush(stdout);
	pause();
	return 0;
}
