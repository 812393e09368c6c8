/* robustproc.c: child processes that end holding a process-shared robust
 * mutex (in a memfd both map): the kernel marks it (FUTEX_OWNER_DIED) as
 * the process ends, where no thread of it remains to show the mark, and
 * the parent's next lock gets EOWNERDEAD. The children end by
 * exit_group, by exit from the last thread, by exit_group while another
 * thread holds it, by abort(), by raise(SIGKILL), and by the parent's
 * SIGKILL (kill, then pidfd_send_signal) while holding it through a
 * mapping of their own at another address. Prints how each ended and
 * what each lock returned, and a token. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t *m;
static int fd, ready[2];

static void *holder(void *arg)
{
	pthread_mutex_lock(m);
	*(volatile int *)arg = 1;
	pause();	/* until the process ends */
	return NULL;
}

static void child(int how)
{
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	if (how == 2) {
		/* Another thread holds it when the process ends. */
		static volatile int held;
		pthread_t t;
		pthread_create(&t, NULL, holder, (void *)&held);
		while (!held)
			usleep(1000);
		exit(0);
	}
	if (how >= 5)	/* through a mapping at another address */
		m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pthread_mutex_lock(m);
	if (how == 1)
		pthread_exit(NULL);	/* the last thread: exit, not exit_group */
	if (how == 3)
		abort();
	if (how == 4)
		raise(SIGKILL);
	if (how >= 5) {
		write(ready[1], "", 1);
		pause();	/* until the parent kills it */
	}
	exit(0);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);	/* not again from the children */
	fd = memfd_create("robustproc", 0);
	if (fd < 0 || ftruncate(fd, 4096) < 0 || pipe(ready) < 0)
		return 1;
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(m, &a);
	for (int how = 0; how < 7; how++) {
		pid_t p = fork();
		if (p == 0)
			child(how);
		if (how >= 5) {
			char c;
			read(ready[0], &c, 1);
			if (how == 5)
				kill(p, SIGKILL);
			else
				syscall(SYS_pidfd_send_signal, (int)syscall(SYS_pidfd_open, p, 0), SIGKILL,
					NULL, 0);
		}
		int st;
		waitpid(p, &st, 0);
		int r = pthread_mutex_lock(m);
		printf("a child ended holding it (%d): %s %d, %s\n", how,
		       WIFEXITED(st) ? "status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
		       r == EOWNERDEAD ? "EOWNERDEAD" : r ? "error" : "0");
		if (r == EOWNERDEAD)
			pthread_mutex_consistent(m);
		pthread_mutex_unlock(m);
		fflush(stdout);
	}
	return 0;
}
