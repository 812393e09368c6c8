/* tidaddr.c: set_tid_address moves the word the kernel clears (and
 * wakes) at a thread's end (while other threads share its memory). A
 * thread points it at a global the main thread waits on with futex.
 * Prints the pid and what it saw. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int word = 1, same;

static void *run(void *arg)
{
	(void)arg;
	word = 5;
	same = syscall(SYS_set_tid_address, (int *)&word) == syscall(SYS_gettid);
	return NULL;
}

int main(void)
{
	printf("pid %d\n", (int)getpid());
	pthread_t th;
	pthread_create(&th, NULL, run, NULL);
	while (word == 1)
		;
	int v;
	while ((v = word) != 0)
		syscall(SYS_futex, &word, FUTEX_WAIT, v, NULL, NULL, 0);
	printf("thread: word %d, returned its tid %d\n", word, same);
	/* No pthread_join: the thread's own id is never cleared. */
	fflush(stdout);
	_exit(0);
}
