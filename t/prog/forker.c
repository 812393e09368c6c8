/* forker.c: makes a child process or thread the way its argument says
 * (fork, rawfork, vfork, thread) and prints the child's pid, which differs
 * from run to run; "ptrace" makes a syscall rec cannot record yet. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread_main(void *arg)
{
	printf("thread %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	return arg;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "fork";
	printf("forker: %s\n", how);
	fflush(stdout);
	if (!strcmp(how, "ptrace")) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		printf("traced\n");
		return 0;
	}
	if (!strcmp(how, "thread")) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, NULL) != 0)
			return perror("pthread_create"), 1;
		pthread_join(t, NULL);
		printf("joined\n");
		return 0;
	}
	pid_t pid;
	if (!strcmp(how, "vfork"))
		pid = vfork();
	else if (!strcmp(how, "rawfork"))
		pid = syscall(SYS_fork);
	else
		pid = fork();
	if (pid < 0)
		return perror(how), 1;
	if (pid == 0)
		_exit(3);
	int st;
	waitpid(pid, &st, 0);
	printf("child %d exited %d\n", (int)pid, WEXITSTATUS(st));
	return 0;
}
