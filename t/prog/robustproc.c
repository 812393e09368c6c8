/* robustproc.c: child processes that end holding a process-shared robust
 * mutex (in shared memory): the kernel marks it (FUTEX_OWNER_DIED) as
 * the process ends, where no thread of it remains to show the mark, and
 * the parent's next lock gets EOWNERDEAD. Ends by exit_group, by exit
 * from the last thread, and by exit_group while another thread holds
 * it. Prints what each lock returned, and a token. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t *m;

static void *holder(void *arg)
{
	pthread_mutex_lock(m);
	*(int *)arg = 1;
	pause();	/* until the process ends */
	return NULL;
}

static void child(int how)
{
	if (how == 2) {
		/* Another thread holds it when the process ends. */
		static volatile int held;
		pthread_t t;
		pthread_create(&t, NULL, holder, (void *)&held);
		while (!held)
			usleep(1000);
		exit(0);
	}
	pthread_mutex_lock(m);
	if (how == 1)
		pthread_exit(NULL);	/* the last thread: exit, not exit_group */
	exit(0);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);	/* not again from the children */
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(m, &a);
	for (int how = 0; how < 3; how++) {
		pid_t p = fork();
		if (p == 0)
			child(how);
		int st;
		waitpid(p, &st, 0);
		int r = pthread_mutex_lock(m);
		printf("a child ended holding it (%d): status %d, %s\n", how, WEXITSTATUS(st),
		       r == EOWNERDEAD ? "EOWNERDEAD" : r ? "error" : "0");
		if (r == EOWNERDEAD)
			pthread_mutex_consistent(m);
		pthread_mutex_unlock(m);
		fflush(stdout);
	}
	return 0;
}
