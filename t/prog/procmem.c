/* procmem.c: writes its own memory through /proc/self/mem: pwrite into
 * a variable, write after lseek, pwritev into two places, and a forced
 * write into a read-only page; each with a random value. Then, with an
 * argument, a forked child writes its parent's memory through
 * /proc/PPID/mem. Prints what the memory holds after each. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long var = 5, other = 6;

int main(int argc, char **argv)
{
	long tok = 0;
	(void)argv;
	getrandom(&tok, sizeof tok, 0);
	tok &= 0xffffff;
	int fd = open("/proc/self/mem", O_RDWR);
	if (fd < 0) {
		perror("procmem: /proc/self/mem");
		return 1;
	}
	printf("token %06lx\n", tok);
	long v = tok;
	ssize_t k = pwrite(fd, &v, sizeof v, (off_t)(uintptr_t)&var);
	printf("pwrite %zd: var %06lx\n", k, var);
	v = tok ^ 0x5a5a;
	lseek(fd, (off_t)(uintptr_t)&other, SEEK_SET);
	k = write(fd, &v, sizeof v);
	printf("write %zd: other %06lx\n", k, other);
	long a = tok + 1, b = tok + 2;
	struct iovec iv[2] = { { &a, sizeof a }, { &b, sizeof b } };
	static volatile long pair[2];
	k = pwritev(fd, iv, 2, (off_t)(uintptr_t)pair);
	printf("pwritev %zd: pair %06lx %06lx\n", k, pair[0], pair[1]);
	char *ro = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char msg[32];
	int n = snprintf(msg, sizeof msg, "forced %06lx", tok);
	k = pwrite(fd, msg, n, (off_t)(uintptr_t)ro);
	printf("into a read-only page %zd: %s\n", k, ro);
	if (argc > 1) {
		fflush(stdout);
		pid_t p = fork();
		if (p == 0) {
			char path[64];
			snprintf(path, sizeof path, "/proc/%d/mem", getppid());
			int pf = open(path, O_RDWR);
			v = 99;
			k = pwrite(pf, &v, sizeof v, (off_t)(uintptr_t)&var);
			_exit(k == sizeof v ? 0 : 1);
		}
		int st;
		waitpid(p, &st, 0);
		printf("the child wrote: var %ld\n", var);
	}
	return 0;
}
