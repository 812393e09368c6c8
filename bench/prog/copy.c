/* copy.c: bench workload of bulk I/O: copies a file with 64 KiB reads and
 * writes. Usage: copy FROM TO */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: copy FROM TO\n"), 2;
	int in = open(argv[1], O_RDONLY);
	int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		return perror("open"), 1;
	static char buf[1 << 16];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, n - off);
			if (w < 0)
				return perror("write"), 1;
			off += w;
		}
	if (n < 0)
		return perror("read"), 1;
	return close(out) < 0;
}
