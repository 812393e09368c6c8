/* pidns: a new pid namespace (unshare(CLONE_NEWPID), then fork; with
 * "clone", clone(CLONE_NEWPID)): the child is pid 1 there, forks two of
 * its own, kills one by its pid in the namespace, and reaps both; the
 * parent reaps the child. With "segv", the child dies of a fault at
 * once (which the kernel lets kill a namespace's init only while it is
 * not traced). With "orphan", the child leaves a third one
 * paused when it exits, which the kernel then kills. Before it exits it
 * sends itself SIGQUIT and SIGRTMIN+2, which the kernel drops (init of a
 * namespace). Each run draws its own token and exit status. */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned r;
static int orphan, segv;
static char stack[65536] __attribute__((aligned(16)));

static int init(void *arg)
{
	(void)arg;
	printf("child: pid %d, parent %d\n", getpid(), getppid());
	fflush(stdout);
	if (segv)	/* no handler: it dies of the fault, init or not */
		*(volatile unsigned *)(uintptr_t)(r & 0) = r;
	pid_t a = fork();
	if (a == 0) {
		pause();
		_exit(0);
	}
	pid_t b = fork();
	if (b == 0)
		_exit(r % 100);
	int st;
	kill(a, SIGTERM);
	pid_t w1 = waitpid(a, &st, 0);
	printf("init: %d killed by %d\n", w1, WTERMSIG(st));
	pid_t w2 = waitpid(b, &st, 0);
	printf("init: %d exited %d\n", w2, WEXITSTATUS(st));
	fflush(stdout);
	/* At their default action, signals it sends itself are dropped:
	 * init of a namespace is not killed by them. */
	kill(getpid(), SIGQUIT);
	kill(getpid(), SIGRTMIN + 2);
	printf("init: survived its own SIGQUIT and SIGRTMIN+2\n");
	fflush(stdout);
	if (orphan && fork() == 0) {
		pause();
		_exit(0);
	}
	_exit(r % 50);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "reap";
	orphan = !strcmp(mode, "orphan");
	segv = !strcmp(mode, "segv");
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	fflush(stdout);
	pid_t c;
	if (!strcmp(mode, "clone")) {
		c = clone(init, stack + sizeof stack, CLONE_NEWPID | SIGCHLD, NULL);
	} else {
		if (unshare(CLONE_NEWPID) < 0) {
			perror("unshare");
			return 1;
		}
		c = fork();
		if (c == 0)
			init(NULL);
	}
	if (c < 0) {
		perror("clone");
		return 1;
	}
	int st;
	waitpid(c, &st, 0);
	if (WIFSIGNALED(st))
		printf("token %08x: child killed by %d\n", r, WTERMSIG(st));
	else
		printf("token %08x: child exited %d (want %u)\n", r, WEXITSTATUS(st), r % 50);
	return 0;
}
