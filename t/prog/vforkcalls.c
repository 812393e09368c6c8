/* vforkcalls.c: a vfork child makes 20 getppid calls and exits while its
 * parent waits in vfork, then the parent makes 20 more and prints a
 * random token. No checkpoint can be made while the child runs (t9020). */
#include <stdio.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned r = 0;
	for (int i = 0; i < 5; i++)
		syscall(SYS_getppid);
	pid_t c = vfork();
	if (c == 0) {
		for (int i = 0; i < 20; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	if (c < 0 || waitpid(c, NULL, 0) != c)
		return 1;
	for (int i = 0; i < 20; i++)
		syscall(SYS_getppid);
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 1;
	printf("token %u\n", r);
	return 0;
}
