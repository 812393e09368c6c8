/* random.c: prints bytes from getrandom, /dev/urandom and the kernel's
 * AT_RANDOM auxv block, plus the pid; all differ on every run. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <unistd.h>

static void hex(const char *what, const unsigned char *p, int n)
{
	printf("%s ", what);
	for (int i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

int main(void)
{
	unsigned char buf[16];
	if (getrandom(buf, sizeof buf, 0) != sizeof buf)
		return perror("getrandom"), 1;
	hex("getrandom", buf, sizeof buf);

	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof buf) != sizeof buf)
		return perror("/dev/urandom"), 1;
	close(fd);
	hex("urandom", buf, sizeof buf);

	const unsigned char *at = (const unsigned char *)getauxval(AT_RANDOM);
	if (!at)
		return fprintf(stderr, "random: no AT_RANDOM\n"), 1;
	hex("at_random", at, 16);

	srandom(buf[0] | buf[1] << 8 | buf[2] << 16);
	printf("random %ld pid-parity %d\n", random(), getpid() & 1);
	fprintf(stderr, "stderr %02x%02x\n", buf[3], buf[4]);
	return 0;
}
