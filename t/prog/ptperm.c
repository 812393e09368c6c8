/* ptperm.c: root's child sleeps; another child becomes user nobody and
 * tries PTRACE_ATTACH on it, which the kernel refuses (EPERM); then
 * root's main process attaches to it (allowed) and kills it. Prints each
 * answer and a random marker. Needs root ("not root" otherwise). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned marker = 0;
	if (getuid() != 0) {
		printf("not root\n");
		return 0;
	}
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	printf("marker %u\n", marker);
	fflush(stdout);
	pid_t sleeper = fork();
	if (sleeper == 0) {
		pause();
		_exit(0);
	}
	pid_t other = fork();
	if (other == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		long r = ptrace(PTRACE_ATTACH, sleeper, 0, 0);
		printf("nobody attaches: %ld %s\n", r, r ? strerrorname_np(errno) : "");
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(other, &st, 0);
	long r = ptrace(PTRACE_ATTACH, sleeper, 0, 0);
	printf("root attaches: %ld\n", r);
	if (r == 0)
		waitpid(sleeper, &st, 0);
	kill(sleeper, SIGKILL);
	waitpid(sleeper, &st, 0);
	printf("done\n");
	return 0;
}
