/* mremapmove.c: a file mapped shared (which replay maps from a memfd of
 * its own) grown by mremap with MREMAP_MAYMOVE, which moves it; prints
 * a random marker written before the move, read after it, and whether
 * it moved. Usage: mremapmove FILE */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned marker = 0;
	if (argc != 2 || getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 2;
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 4096001) < 0)
		return 2;
	char *p = mmap(NULL, 4096000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 2;
	*(unsigned *)(p + 4000000) = marker;
	if (ftruncate(fd, 8192001) < 0)
		return 2;
	char *q = mremap(p, 4096000, 8192000, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return 3;
	q[8000000] = 1;
	printf("mremap %s, marker %u\n", q == p ? "in place" : "moved", *(unsigned *)(q + 4000000));
	unlink(argv[1]);
	return 0;
}
