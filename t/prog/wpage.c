/* wpage.c: memory that watchpoints by page protection must tell apart: a
 * watched variable whose neighbours on its page are read and written all
 * the time, a read() that fills a neighbour, a signal whose frame goes
 * onto the stack page of a watched local, the program's own mprotect of
 * the watched page, and a shared page. Prints a line that differs each run. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

long before[8];
volatile long target;
long after[8];

static void handler(int sig)
{
	target += sig; /* HANDLER */
}

int main(void)
{
	unsigned seed = 0;
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return 1;
	volatile long local = seed % 100;
	signal(SIGUSR1, handler);
	for (int i = 0; i < 1000; i++) { /* NEIGHBOURS */
		before[i % 8] += i;
		after[i % 8] ^= before[(i + 3) % 8];
	}
	/* Never 0, the value it had: gdb reports only a write that changes it. */
	target = seed % 1000 + 1; /* WRITE1 */
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, after, sizeof after) != sizeof after)
		return 1;
	close(fd);
	raise(SIGUSR1);
	local += target; /* LOCAL */
	uintptr_t page = (uintptr_t)&target & ~(uintptr_t)4095;
	mprotect((void *)page, 4096, PROT_READ);
	long x = target; /* READONLY */
	mprotect((void *)page, 4096, PROT_READ | PROT_WRITE);
	target = x * 2 + (after[0] & 7); /* WRITE2 */
	char *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 1;
	shared[0] = (char)seed; /* SHARED */
	printf("seed %u target %ld local %ld shared %d before %ld\n", seed, target, local, shared[0],
	       before[1]);
	return 0;
}
