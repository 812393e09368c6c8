/* spliceout.c: sends a file's bytes to stdout with splice, as a line
 * holding a random token, twice: with an offset pointer and from the
 * file position; the token goes to stderr too. With an argument, it
 * splices from a pipe instead. stdout must be a pipe (splice needs one
 * end to be). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		/* From a pipe instead: the bytes are gone once moved. */
		int p[2];
		if (pipe(p) < 0 || write(p[1], "from a pipe\n", 12) != 12)
			return 1;
		return splice(p[0], NULL, 1, NULL, 12, 0) == 12 ? 0 : 1;
	}
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	fprintf(stderr, "token %08x\n", tok);
	char name[32], line[64];
	snprintf(name, sizeof name, "data-%08x", tok);
	int fd = open(name, O_CREAT | O_RDWR | O_TRUNC, 0600);
	int n = snprintf(line, sizeof line, "spliced from a file: %08x\n", tok);
	if (fd < 0 || write(fd, line, n) != n)
		return 1;
	loff_t off = 0;
	ssize_t k = splice(fd, &off, 1, NULL, n, 0);
	fprintf(stderr, "splice with an offset = %zd%s%s\n", k, k < 0 ? " " : "", k < 0 ? strerror(errno) : "");
	lseek(fd, 0, SEEK_SET);
	k = splice(fd, NULL, 1, NULL, n, 0);
	fprintf(stderr, "splice from the position = %zd\n", k);
	unlink(name);
	return 0;
}
