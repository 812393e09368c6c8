/* outv.c: writes 1 MiB of pseudo-random bytes (from an 8-byte random
 * seed) to stdout with write, then a line with writev (three pieces),
 * and a random line to stderr with writev: output that differs from run
 * to run and is far larger than what the program read. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>

static unsigned char big[1 << 20];

int main(void)
{
	unsigned long long x = 0;
	if (getrandom(&x, sizeof x, 0) != sizeof x)
		return 1;
	x |= 1;
	for (size_t i = 0; i < sizeof big; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(big + i, &x, 8);
	}
	size_t done = 0;
	while (done < sizeof big) {
		ssize_t n = write(1, big + done, sizeof big - done);
		if (n <= 0)
			return 1;
		done += n;
	}
	unsigned tok[3];
	if (getrandom(tok, sizeof tok, 0) != sizeof tok)
		return 1;
	char a[32], b[32], c[32];
	snprintf(a, sizeof a, "\nfirst %08x ", tok[0]);
	snprintf(b, sizeof b, "second %08x ", tok[1]);
	snprintf(c, sizeof c, "third %08x\n", tok[2]);
	struct iovec v[3] = { { a, strlen(a) }, { b, strlen(b) }, { c, strlen(c) } };
	if (writev(1, v, 3) != (ssize_t)(strlen(a) + strlen(b) + strlen(c)))
		return 1;
	struct iovec e[2] = { { "to stderr: ", 11 }, { b, strlen(b) } };
	return writev(2, e, 2) == (ssize_t)(11 + strlen(b)) ? 0 : 1;
}
