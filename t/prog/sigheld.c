/* sigheld.c: blocks SIGCHLD, forks a child that exits at once, reaps it
 * and makes 20 getppid calls while the kernel holds the child's SIGCHLD
 * for it, then unblocks it and prints a random token. For tseek's account
 * of the stretches where it can make no checkpoint (t9020). */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned r = 0;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getppid);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	if (c < 0 || waitpid(c, NULL, 0) != c)
		return 1;
	for (int i = 0; i < 20; i++)
		syscall(SYS_getppid);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getppid);
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 1;
	printf("token %u\n", r);
	return 0;
}
