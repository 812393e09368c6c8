/* shanon.c: a shared anonymous mapping, shared with a forked child,
 * whose first word takes the values 1 to 4 with a system call after each
 * (places for gdb to stop at); the last is random, so runs differ. */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	volatile unsigned *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 2;
	for (unsigned i = 1; i <= 3; i++) {
		p[0] = i;
		getppid();	/* step */
	}
	pid_t pid = fork();
	if (pid == 0) {
		p[0] = r | 4;
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("the child stored %08x\n", p[0]);
	return p[0] != (r | 4);
}
